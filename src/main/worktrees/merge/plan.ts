import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isBinary } from './blobs'
import { hashOf, MAX_TEXT_BYTES } from './changes'
import { git } from './git'
import { planText } from './plan-text'
import { checkRelativePath } from './safe-path'
import type { BaseFile, MergePick, MergePlan, MergePlanFile, MergeRefusal, MergeSource, Side } from './plan-types'

/**
 * Plans a local merge: for every file the picks touch, what the base would hold after Apply — the
 * picked hunks of each session merged three-way (real git) into the base's text as it is now,
 * with the hunks that collide with the base's own changes or with another session's pick held
 * back and previewed three-way. A `resolutions` entry (the user's text for a file) stands in for
 * its merge. Nothing is written. Contract: rejects only when git cannot run.
 */
export async function planMerge(baseRoot: string, sources: ReadonlyMap<string, MergeSource>, picks: readonly MergePick[], resolutions: Readonly<Record<string, string>> = {}, env?: NodeJS.ProcessEnv): Promise<MergePlan> {
  const refused: MergeRefusal[] = []
  const byPath = new Map<string, Side[]>()
  for (const pick of picks) {
    const source = sources.get(pick.sessionId)
    const file = source?.files.get(pick.path)
    const why = checkRelativePath(pick.path) ?? (!source ? 'no such session in this run' : !file ? 'the session no longer changes this file' : file.unsupported)
    if (why !== undefined || !source || !file) {
      refused.push({ sessionId: pick.sessionId, path: pick.path, why: why ?? 'no such file' })
      continue
    }
    const sides = byPath.get(pick.path) ?? []
    if (sides.some((side) => side.source.sessionId === pick.sessionId)) continue
    const asked = pick.hunks
    const hunks: readonly number[] | 'all' = file.whole || file.change === 'deleted' || asked === 'all' ? 'all' : [...new Set(asked)].filter((index) => Number.isInteger(index) && index >= 0 && index < file.hunks).sort((a, b) => a - b)
    if (hunks !== 'all' && hunks.length === 0) continue
    sides.push({ source, file, picks: hunks })
    byPath.set(pick.path, sides)
  }
  const paths = [...byPath.keys()].sort()
  const dirty = await dirtyPaths(baseRoot, paths, env)
  const files: MergePlanFile[] = []
  for (const path of paths) {
    const base = await readBase(baseRoot, path)
    const sides = byPath.get(path)!
    if (base.refused) {
      for (const side of sides) refused.push({ sessionId: side.source.sessionId, path, why: base.refused })
      continue
    }
    const fingerprint = hashOf(JSON.stringify([base.bytes ? hashOf(base.bytes) : null, ...sides.map((side) => [side.source.sessionId, side.file.afterHash, side.picks])]))
    files.push({ ...(await planText(path, base, sides, resolutions[path])), dirty: dirty.has(path), fingerprint })
  }
  return { files, refused }
}

/** The base's file as the plan reads it; a symbolic link or a folder is refused (Apply would write through it). */
async function readBase(baseRoot: string, path: string): Promise<BaseFile> {
  const stat = await lstat(join(baseRoot, path)).catch(() => undefined)
  if (!stat) return {}
  if (stat.isSymbolicLink()) return { refused: 'in the base it is a symbolic link: merge it by hand' }
  if (!stat.isFile()) return { refused: 'in the base it is not a regular file' }
  const bytes = await readFile(join(baseRoot, path))
  return bytes.length <= MAX_TEXT_BYTES && !isBinary(bytes) ? { bytes, text: bytes.toString('utf8') } : { bytes }
}

/**
 * The paths among `paths` with uncommitted changes in the base (modified, staged, untracked,
 * ignored): the user's work in progress, which Apply does not overwrite unless the user confirms.
 */
export async function dirtyPaths(baseRoot: string, paths: readonly string[], env?: NodeJS.ProcessEnv): Promise<Set<string>> {
  if (paths.length === 0) return new Set()
  // `--ignored=matching`: a gitignored file of the user's (`.env`, local keys) that a session's
  // added file would replace is the user's work too, though plain `git status` does not show it.
  const result = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--no-renames', '--', ...paths.map((path) => `:(literal)${path}`)], { cwd: baseRoot, ...(env && { env }) })
  if (!result.ok) throw new Error(`git status: ${result.error}`)
  const out = new Set<string>()
  for (const entry of result.stdout.split('\0')) if (entry.length > 3) out.add(entry.slice(3))
  return out
}
