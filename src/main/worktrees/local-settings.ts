import { realpath } from 'node:fs/promises'
import { copyOne, type IncludeOutcome } from './include'

/** The user's own settings of a checkout: gitignored, so a new worktree would not have it. */
export const LOCAL_SETTINGS = '.claude/settings.local.json'

/**
 * Copies the main checkout's `.claude/settings.local.json` into a new worktree, as Claude Code
 * does: it is gitignored, so without the copy a session in the worktree would lose the user's
 * local permissions and settings. The same care as `.worktreeinclude`'s copies: a link is not
 * followed, a `.claude` of the worktree's checkout that leads elsewhere is not written through,
 * and an existing file (one the repository tracks, or `.worktreeinclude` already copied) is left
 * as it is. Adds to `outcome`: copied, or skipped with why (absent is neither). Contract: never
 * rejects.
 */
export async function copyLocalSettings(root: string, worktree: string, outcome: IncludeOutcome): Promise<void> {
  let realRoot: string, realWorktree: string
  try {
    ;[realRoot, realWorktree] = await Promise.all([realpath(root), realpath(worktree)])
  } catch {
    return
  }
  const why = await copyOne(realRoot, realWorktree, LOCAL_SETTINGS)
  if (why === undefined) outcome.copied.push(LOCAL_SETTINGS)
  // Absent in the main checkout, or already in the worktree: nothing to say.
  else if (!why.includes('ENOENT') && why !== 'the worktree already has a file there') outcome.skipped.push({ path: LOCAL_SETTINGS, why })
}
