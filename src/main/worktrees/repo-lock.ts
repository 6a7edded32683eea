import { join } from 'node:path'
import { projectDataDir } from '../base/paths'
import { withFileLock, type FileLockPolicy } from '../store/teams/file-lock'

/**
 * A creation may wait behind several others (each a checkout, `.worktreeinclude`'s copies, a
 * sparse checkout): up to about a minute before it gives up saying so.
 */
const POLICY: FileLockPolicy = { retries: 600, minDelayMs: 5, maxDelayMs: 100 }

/**
 * Runs `critical` holding the repository's worktree lock (`$SOUS_HOME/projects/<slug of the main
 * checkout>/worktrees.git.lock`, proper-lockfile): git's worktree commands are not safe run at
 * once in one repository — a `git worktree add` reads every other worktree's half-made entry and
 * fails ("failed to read .git/worktrees/…/commondir"), a `git worktree lock` beside it finds
 * "not a working tree" — so every Sous process takes turns for add, lock, unlock, list, remove.
 * Never nest it (a process's callers queue per file, so a nested call would wait for itself).
 */
export function withWorktreeLock<T>(home: string, repoRoot: string, critical: () => Promise<T>): Promise<T> {
  return withFileLock(join(projectDataDir(home, repoRoot), 'worktrees.git'), critical, POLICY)
}
