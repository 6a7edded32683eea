import { z } from 'zod'
import { AbsPath, Id } from './common'

import { WorktreeInfo } from './worktree-info'
export { WorktreeInfo, WorktreeName, WorktreeOwner, worktreeNameShapeProblem } from './worktree-info'

/**
 * What removing a worktree would lose: files with uncommitted changes (staged, unstaged or
 * untracked, not ignored) and commits on its branch that the base does not hold. `summary` is the
 * sentence the UI shows before a forced removal ("2 uncommitted files and 1 commit on worktree-foo").
 */
export const WorktreeLoss = z.object({
  uncommitted: z.array(z.string()),
  commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
  summary: z.string(),
})
export type WorktreeLoss = z.infer<typeof WorktreeLoss>

/**
 * One row of `worktrees.list`. `state`: `live` (its session is open here), `stored` (its session
 * is on disk, not open), `orphan` (its session is gone: offered for cleanup, never removed without
 * being asked), `unregistered` (a folder under `.claude/worktrees` git knows that Sous did not
 * make, e.g. Claude Code's), `missing` (the registry names it but the folder is gone).
 */
export const WorktreeRow = WorktreeInfo.extend({
  state: z.enum(['live', 'stored', 'orphan', 'unregistered', 'missing']),
  /** git's lock on it (`sous session <id>` for ours). */
  locked: z.string().optional(),
})
export type WorktreeRow = z.infer<typeof WorktreeRow>

/** Whether worktrees can be made for a folder, and if not the one sentence to show (once). */
export const WorktreeAvailability = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), gitVersion: z.string(), repoRoot: z.string() }),
  z.object({ available: z.literal(false), reason: z.enum(['not-a-repository', 'git-missing', 'git-too-old', 'git-broken', 'unsafe-config']), message: z.string() }),
])
export type WorktreeAvailability = z.infer<typeof WorktreeAvailability>

/** The answer to archiving or removing: done (with what was discarded when forced), or refused with what would be lost. */
export const WorktreeRemoval = z.discriminatedUnion('removed', [
  z.object({ removed: z.literal(true), path: z.string(), branch: z.string(), discarded: WorktreeLoss.optional() }),
  z.object({ removed: z.literal(false), path: z.string(), branch: z.string(), loss: WorktreeLoss }),
])
export type WorktreeRemoval = z.infer<typeof WorktreeRemoval>

/**
 * `worktrees.*`: sessions in their own git worktree (issue 27, parts 1 and 5). A session starts in
 * one through `session.create`'s `worktree` field; these channels tell whether that is possible,
 * list what exists, say what removing one would lose, archive a session (its worktree and branch
 * go) and clean up worktrees whose session is gone. Nothing is removed while it holds work the
 * base lacks unless `force` is given, and then the answer says what was discarded.
 */
export const worktreesRequests = {
  /** Whether worktrees can be made for the folder (a git repository, a usable git). */
  'worktrees.availability': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: WorktreeAvailability,
  },
  /** The worktrees of the folder's repository under `.claude/worktrees`, with their sessions' state. */
  'worktrees.list': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.object({ worktrees: z.array(WorktreeRow) }),
  },
  /** What removing one worktree would lose (nothing is changed). */
  'worktrees.changes': {
    input: z.object({ projectPath: AbsPath, path: AbsPath }).strict(),
    output: WorktreeLoss,
  },
  /**
   * Archives a session that runs in a worktree: stops it if it runs, removes its worktree and branch.
   * Refused (`removed: false`, with the loss) while it has changes or commits the base lacks, unless `force`.
   */
  'worktrees.archive': {
    input: z.object({ sessionId: Id, force: z.boolean().optional() }).strict(),
    output: WorktreeRemoval,
  },
  /** Removes the named worktrees (each must be listed as `orphan`, `unregistered` or `missing`); each answered as archive is. */
  'worktrees.cleanup': {
    input: z.object({ projectPath: AbsPath, paths: z.array(AbsPath).min(1).max(200), force: z.boolean().optional() }).strict(),
    output: z.object({ results: z.array(WorktreeRemoval) }),
  },
} as const
