import { z } from 'zod'
import { AbsPath, Id } from './common'

/**
 * A worktree name as Claude Code takes it (EnterWorktree, `-w/--worktree [name]`): `/`-separated
 * segments of letters, digits, dots, underscores and dashes, at most 64 characters. The folder is
 * `.claude/worktrees/<name with / as +>`, the branch `worktree-<same>`. Whether git accepts the
 * branch (`git check-ref-format`) and where the folder really leads are checked in the main process.
 */
export const WorktreeName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'a worktree name is letters, digits, dots, underscores and dashes, in "/"-separated parts')

/**
 * Why `name` cannot name a worktree, by its shape alone (undefined when it can): Claude Code's
 * shape ({@link WorktreeName}), no `.`/`..` segment (it would leave `.claude/worktrees`) and no
 * segment git forbids in a branch (`.lock` ends, leading dots or dashes, `..`). The main process
 * checks this first, then asks git (`check-ref-format`); the "New session" field shows the same
 * sentence as the user types.
 */
export function worktreeNameShapeProblem(name: string): string | undefined {
  const shape = WorktreeName.safeParse(name)
  if (!shape.success) return `"${printableName(name)}" is not a worktree name: ${shape.error.issues[0]?.message ?? 'invalid'}; at most 64 characters.`
  for (const segment of name.split('/')) {
    if (segment === '.' || segment === '..') return `"${name}" is not a worktree name: "${segment}" would leave .claude/worktrees.`
    if (segment.startsWith('.') || segment.startsWith('-') || segment.endsWith('.lock') || segment.endsWith('.')) return `"${name}" is not a worktree name: git does not accept "${segment}" in a branch name.`
  }
  if (name.includes('..')) return `"${name}" is not a worktree name: git does not accept ".." in a branch name.`
  return undefined
}

/** A name shown back to the user: control characters replaced, cut at 80 characters. */
function printableName(name: string): string {
  return name.replace(/[\p{Cc}\p{Cf}]/gu, '?').slice(0, 80)
}

/** Who made a worktree: a session started in it, an Agent call with `isolation: "worktree"`, or EnterWorktree. */
export const WorktreeOwner = z.enum(['session', 'agent', 'entered'])
export type WorktreeOwner = z.infer<typeof WorktreeOwner>

/** One worktree Sous made, as its registry keeps it. */
export const WorktreeInfo = z.object({
  /** The name it was made with (`fix/login`). */
  name: z.string(),
  /** Its folder, absolute (`<repo>/.claude/worktrees/fix+login`). */
  path: z.string(),
  /** Its branch (`worktree-fix+login`). */
  branch: z.string(),
  /** The base checkout it was made from: the repository's main working tree. */
  repoRoot: z.string(),
  /** The commit it started from. */
  baseCommit: z.string(),
  /** The branch that commit was on (absent when HEAD was detached or the base was `origin/…`). */
  baseBranch: z.string().optional(),
  /** The ref it branched from: `HEAD`, or `origin/<default>` for `worktree.baseRef: "fresh"`. */
  baseRef: z.string(),
  /** The session it belongs to (absent for a worktree made outside any session we know). */
  sessionId: z.string().optional(),
  /** With `owner: "agent"`: the subagent's id. */
  agentId: z.string().optional(),
  owner: WorktreeOwner,
  createdAt: z.string(),
  /** With `owner: "entered"`: the session works in it now (EnterWorktree; ExitWorktree "keep" clears it). */
  active: z.boolean().optional(),
  /** `worktree.sparsePaths` it was made with (cone mode), when any. */
  sparsePaths: z.array(z.string()).optional(),
  /** Files `.worktreeinclude` copied in, relative to the worktree. */
  copied: z.array(z.string()).optional(),
})
export type WorktreeInfo = z.infer<typeof WorktreeInfo>

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
