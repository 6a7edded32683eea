import { rm } from 'node:fs/promises'
import type { WorktreeRemoval } from '../../shared/ipc/worktrees'
import { git } from './git'
import { losesWork, worktreeLoss, type LossSubject } from './changes'

/**
 * Removes a worktree and its branch. Refused (`removed: false`, with what would be lost) while it
 * has uncommitted files or commits the base lacks, unless `force`; forced, the answer names what
 * was discarded. The caller has checked that the worktree is ours to remove (its lock is this
 * session's, or it is listed for cleanup). Contract: never rejects for git's failures; an
 * Error is thrown only when git refuses the removal itself.
 */
export async function removeWorktree(info: LossSubject, options: { force?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<WorktreeRemoval> {
  const { env } = options
  const call = { cwd: info.repoRoot, ...(env && { env }) }
  const exists = (await git(['rev-parse', '--git-dir'], { cwd: info.path, ...(env && { env }) })).ok
  const loss = await worktreeLoss(info, env, { folderGone: !exists })
  if (losesWork(loss) && !options.force) return { removed: false, path: info.path, branch: info.branch, loss }
  await git(['worktree', 'unlock', '--', info.path], call)
  if (exists) {
    const removed = await git(['worktree', 'remove', '--force', '--force', '--', info.path], call)
    if (!removed.ok) throw new Error(`git could not remove the worktree at ${info.path}: ${removed.error}`)
  } else {
    // The folder is gone already: forget git's record of it.
    await git(['worktree', 'prune'], call)
    await rm(info.path, { recursive: true, force: true }).catch(() => undefined)
  }
  await git(['branch', '-D', '--', info.branch], call)
  return { removed: true, path: info.path, branch: info.branch, ...(losesWork(loss) && { discarded: loss }) }
}
