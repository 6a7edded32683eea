import { existsSync } from 'node:fs'
import { readdir, rename } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { projectSlug } from '../base/paths'
import { loadTranscript, makePrivateFolder, sessionsDir } from './transcript'

/**
 * The folder name earlier versions of Sous gave a project's data: the path with every
 * non-alphanumeric character turned into `-`, without the digest that now keeps `/a-b` and `/a/b`
 * apart.
 */
export function legacyProjectSlug(projectPath: string): string {
  return resolve(projectPath).replace(/[^A-Za-z0-9]/g, '-')
}

/**
 * Moves a project's transcripts out of the folder earlier versions used into the project's
 * current sessions folder, so its old sessions are listed and resumed as before. Only a transcript
 * whose own header names exactly this project moves (the old folder may be shared with another
 * project whose path reads the same); one that already exists in the new folder stays where it
 * is. A rename within `$SOUS_HOME` is atomic, so a crash leaves each file in one place or the
 * other, never lost. Never throws: a file that cannot move stays, and is still found by id.
 */
export async function adoptLegacySessions(home: string, projectPath: string): Promise<void> {
  const legacy = join(home, 'projects', legacyProjectSlug(projectPath), 'sessions')
  const current = sessionsDir(home, projectPath)
  if (legacy === current || !existsSync(legacy)) return
  const names = await readdir(legacy).catch(() => [] as string[])
  for (const name of names.filter((entry) => entry.endsWith('.jsonl'))) {
    await adoptFile(join(legacy, name), resolve(projectPath), current)
  }
}

/** Moves one legacy transcript (found by id) to its project's current folder; returns where it is now. */
export async function adoptLegacyFile(home: string, file: string): Promise<string> {
  const stored = await loadTranscript(file).catch(() => undefined)
  if (!stored) return file
  const folder = basename(dirname(dirname(file)))
  if (folder !== legacyProjectSlug(stored.projectPath) || folder === projectSlug(stored.projectPath)) return file
  return adoptFile(file, resolve(stored.projectPath), sessionsDir(home, stored.projectPath))
}

async function adoptFile(file: string, project: string, current: string): Promise<string> {
  const stored = await loadTranscript(file).catch(() => undefined)
  if (!stored || resolve(stored.projectPath) !== project) return file
  const target = join(current, basename(file))
  if (existsSync(target)) return file
  try {
    makePrivateFolder(current)
    await rename(file, target)
    return target
  } catch {
    return file
  }
}
