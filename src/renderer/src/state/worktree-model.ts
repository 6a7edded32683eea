import type { SessionSummary, WorktreeAvailability, WorktreeInfo, WorktreeRemoval, WorktreeRow } from '../../../shared/ipc/contract'
import { worktreeNameShapeProblem } from '../../../shared/ipc/worktree-info'

/**
 * The pure side of the renderer's worktree facts (`state/worktrees.ts`): which worktrees hold a
 * project's sessions, which are left for cleanup, what a name field says, and how a worktree is
 * named on a tab. No requests, no React: unit-tested on their own.
 */

/** A session of a worktree, as the base project's session list marks it. */
export interface WorktreeMark {
  name: string
  branch: string
  path: string
}

/**
 * The worktrees whose session was started in them (`owner: "session"`, "New session" or Run on N)
 * and still exists. With `basePath`, only those made from that checkout: a worktree opened as a
 * project of its own lists only its own sessions (its siblings stay in the base's list).
 */
export function sessionWorktrees(rows: readonly WorktreeRow[], basePath?: string): WorktreeRow[] {
  return rows.filter((row) => row.owner === 'session' && row.sessionId !== undefined && (row.state === 'live' || row.state === 'stored') && (basePath === undefined || row.repoRoot === basePath))
}

/** Worktrees offered for cleanup: their session is gone, Sous did not make them, or their folder is gone. */
export function cleanupRows(rows: readonly WorktreeRow[]): WorktreeRow[] {
  return rows.filter((row) => row.state === 'orphan' || row.state === 'unregistered' || row.state === 'missing')
}

/** Why a worktree is listed for cleanup, in the words the list shows. */
export function cleanupReason(row: WorktreeRow): string {
  if (row.state === 'orphan') return row.sessionId ? `its session ${row.sessionId.slice(0, 8)} is gone` : 'its session is gone'
  if (row.state === 'missing') return 'its folder is gone; only the record is left'
  return 'not made by Sous (Claude Code or by hand)'
}

/**
 * The base project's own sessions with its worktree sessions among them, newest first. A session
 * listed twice (a race of two refreshes) is kept once.
 */
export function mergeSessionLists(own: readonly SessionSummary[], worktrees: ReadonlyArray<readonly SessionSummary[]>): SessionSummary[] {
  const seen = new Set(own.map((summary) => summary.sessionId))
  const extra: SessionSummary[] = []
  for (const sessions of worktrees)
    for (const summary of sessions)
      if (!seen.has(summary.sessionId)) {
        seen.add(summary.sessionId)
        extra.push(summary)
      }
  if (extra.length === 0) return [...own]
  return [...own, ...extra].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
}

/**
 * What is wrong with a worktree name typed in "New session" (null: nothing, or empty, which means
 * a random name): the core's own first check (`worktreeNameShapeProblem`, the same sentence); the
 * core then asks git (`check-ref-format`) and refuses a name in use, and says why.
 */
export function worktreeNameProblem(name: string): string | null {
  if (name === '') return null
  return worktreeNameShapeProblem(name) ?? null
}

/** Whether `path` is laid out as a worktree folder (`…/.claude/worktrees/<name>`): only those are looked up. */
export function looksLikeWorktreeFolder(path: string): boolean {
  return /\/\.claude\/worktrees\/[^/]+\/?$/.test(path)
}

/** A worktree's mark, from its record or row. */
export function markOf(info: Pick<WorktreeInfo, 'name' | 'branch' | 'path'>): WorktreeMark {
  return { name: info.name, branch: info.branch, path: info.path }
}

/** The sentence shown (once, beside the disabled checkbox) when worktrees cannot be made; null when they can. */
export function unavailableReason(availability: WorktreeAvailability | undefined): string | null {
  if (!availability || availability.available) return null
  return availability.message
}

/** The status line of a removal: what went, and what was discarded with it (a forced one). */
export function removedSentence(removal: Extract<WorktreeRemoval, { removed: true }>): string {
  const lost = removal.discarded && (removal.discarded.uncommitted.length > 0 || removal.discarded.commits.length > 0) ? ` Discarded: ${removal.discarded.summary}.` : ''
  return `Removed the worktree ${removal.path} and its branch ${removal.branch}.${lost}`
}
