import { createHash } from 'node:crypto'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** `$SOUS_HOME`, default `~/.sous`: user settings, credentials, recent projects, per-project data. */
export function sousHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SOUS_HOME || join(homedir(), '.sous'))
}

/** How much of the readable part of a slug is kept (folder names are limited to 255 bytes). */
const READABLE_CHARS = 100

/**
 * A folder-safe, stable and collision-free name for a project path: the path with every character
 * that is not alphanumeric turned into `-` (as Claude Code names project folders, so people can
 * tell them apart), then a digest of the exact path. The readable part alone is lossy — `/a-b` and
 * `/a/b` both read `-a-b` — so the digest is what keeps two projects' data apart.
 * E.g. `/home/me/app` → `-home-me-app-8c1f0e2a9b3d`.
 */
export function projectSlug(projectPath: string): string {
  const full = resolve(projectPath)
  const readable = full.replace(/[^A-Za-z0-9]/g, '-').slice(-READABLE_CHARS)
  const digest = createHash('sha256').update(full).digest('hex').slice(0, 12)
  return `${readable}-${digest}`
}

/** `$SOUS_HOME/projects/<slug>`: transcripts, tool results, memory, tasks of one project. */
export function projectDataDir(home: string, projectPath: string): string {
  return join(home, 'projects', projectSlug(projectPath))
}

/**
 * `<projectDataDir>/tool-results/<sessionId>`: where a session's results too large for the
 * conversation are saved. The session may read them back without asking (governance).
 */
export function toolResultsDir(projectDataDir: string, sessionId: string): string {
  return join(projectDataDir, 'tool-results', sessionId.replace(/[^A-Za-z0-9_-]/g, '_'))
}
