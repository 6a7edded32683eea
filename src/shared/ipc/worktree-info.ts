import { z } from 'zod'

// Its own file (re-exported by worktrees.ts) so the runtime, which checks worktree names and reads
// the registry, needs no other domain's schemas: a cold `sous -p` must not build the session and
// worktree contracts for them (docs/design/startup.md).

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
