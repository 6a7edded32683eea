import { chmod, readFile, rename, rm, stat, writeFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { AppError } from '../../../shared/ipc/result'
import { hashOf } from './changes'
import { hasConflictMarkers } from './merge-file'
import { planMerge } from './plan'
import type { MergeConflict, MergePick, MergePlanFile, MergeSource } from './plan-types'
import { resolveInside } from './safe-path'

/** What the user chose in the preview, sent back to apply it. */
export interface ApplyRequest {
  picks: readonly MergePick[]
  /** The user's text for files with a conflict. */
  resolutions?: Readonly<Record<string, string>>
  /** Files with uncommitted changes in the base that the user agreed to overwrite. */
  confirmDirty?: readonly string[]
  /** Each previewed file's fingerprint: a file that changed since (in the base or a session) refuses the Apply. */
  fingerprints: Readonly<Record<string, string>>
}

/** What Apply did. */
export interface ApplyOutcome {
  written: string[]
  deleted: string[]
  /** Picks not applied because they conflict and were not resolved. */
  heldBack: Array<MergeConflict & { path: string }>
}

/**
 * Applies a merge to the base checkout: plans it again from the files as they are now (never from
 * the renderer's account), refuses — writing nothing — when a pick no longer plans, a previewed
 * file changed since its preview, a resolution still has conflict markers, or a file with the
 * user's uncommitted changes was not confirmed; then writes every file, and puts every written
 * file back as it was if any write fails. Conflicting picks without a resolution are held back.
 */
export async function applyMerge(baseRoot: string, sources: ReadonlyMap<string, MergeSource>, request: ApplyRequest, env?: NodeJS.ProcessEnv): Promise<ApplyOutcome> {
  const resolutions = request.resolutions ?? {}
  for (const [path, text] of Object.entries(resolutions)) if (hasConflictMarkers(text)) throw new AppError('INVALID_INPUT', `The resolution of ${path} still has conflict markers.`)
  const plan = await planMerge(baseRoot, sources, request.picks, resolutions, env)
  if (plan.refused.length > 0) throw new AppError('CONFLICT', `Nothing was applied: ${plan.refused.map((entry) => `${entry.path} (${entry.why})`).join('; ')}.`)
  const stale = plan.files.filter((file) => request.fingerprints[file.path] !== file.fingerprint).map((file) => file.path)
  if (stale.length > 0) throw new AppError('CONFLICT', `Nothing was applied: ${stale.join(', ')} changed since the preview. Preview again.`)
  const confirmed = new Set(request.confirmDirty ?? [])
  const dirty = plan.files.filter((file) => file.action !== 'none' && file.dirty && !confirmed.has(file.path)).map((file) => file.path)
  if (dirty.length > 0) throw new AppError('CONFLICT', `Nothing was applied: ${dirty.join(', ')} ${dirty.length === 1 ? 'has' : 'have'} uncommitted changes in the base. Confirm to overwrite them.`)
  const heldBack = plan.files.flatMap((file) => (file.resolved ? [] : file.conflicts.map((conflict) => ({ ...conflict, path: file.path }))))
  const work = plan.files.filter((file) => file.action !== 'none')
  const contents = await Promise.all(work.map((file) => contentOf(file, sources)))
  const undo: Array<() => Promise<void>> = []
  // Every file at once (each checked, backed up, then written atomically on its own), not one
  // after another: on a busy machine each file's handful of system calls waits its turn, and a
  // hundred hunks span tens of files. Any failure puts back every file touched.
  const settled = await Promise.allSettled(
    work.map(async (file, index) => {
      const target = await resolveInside(baseRoot, file.path)
      const saved = await backup(target)
      undo.push(saved.restore)
      if (file.action === 'delete') await rm(target, { force: true })
      else await writeKeepingMode(target, contents[index]!, saved.mode)
    }),
  )
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected')
  if (failed) {
    await Promise.all(undo.map((restore) => restore().catch(() => undefined)))
    throw new AppError('INTERNAL', `Nothing was applied: ${(failed.reason as Error).message}`)
  }
  return { written: work.filter((file) => file.action !== 'delete').map((file) => file.path), deleted: work.filter((file) => file.action === 'delete').map((file) => file.path), heldBack }
}

/** The bytes a file's action writes (a copy is read from the session's worktree and checked against the preview's hash). */
async function contentOf(file: MergePlanFile, sources: ReadonlyMap<string, MergeSource>): Promise<Buffer | string> {
  if (file.action === 'write') return file.result ?? ''
  if (file.action !== 'copy' || !file.copyFrom) return ''
  const source = sources.get(file.copyFrom.sessionId)
  const bytes = source ? await readFile(join(source.worktree, file.path)) : undefined
  if (!bytes || hashOf(bytes) !== file.copyFrom.hash) throw new AppError('CONFLICT', `Nothing was applied: ${file.path} changed in its session since the preview.`)
  return bytes
}

/** How to put `target` back as it is now (removed again when it did not exist), and its permission bits (undefined: a new file). */
async function backup(target: string): Promise<{ restore: () => Promise<void>; mode?: number }> {
  const before = await readFile(target).catch(() => undefined)
  const mode = before ? (await stat(target)).mode & 0o7777 : undefined
  const restore = async () => {
    if (before === undefined) await rm(target, { force: true })
    else await writeKeepingMode(target, before, mode ?? 0o644)
  }
  return { restore, ...(mode !== undefined && { mode }) }
}

/** Writes atomically (a temp file renamed over the target) with permission bits `mode` (the target's, read by its backup; 0o644 for a new file). */
async function writeKeepingMode(target: string, data: string | Buffer, mode = 0o644): Promise<void> {
  const keep = mode
  await mkdir(dirname(target), { recursive: true })
  const temp = `${target}.sous-${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, data)
    await chmod(temp, keep)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
