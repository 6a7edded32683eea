import type { WorktreeFile } from './changes'

/** One session as the merge sees it: its worktree, the commit it forked from and what it changed. */
export interface MergeSource {
  sessionId: string
  /** How the preview names it ("session 2 (sonnet)"). */
  label: string
  worktree: string
  fork: string
  files: ReadonlyMap<string, WorktreeFile>
}

/** Hunks (indices into the file's review from the fork point to the worktree) or the whole file, of one session's file. */
export interface MergePick {
  sessionId: string
  path: string
  hunks: readonly number[] | 'all'
}

/** Why one picked hunk (or whole file) is held back. */
export interface MergeConflict {
  sessionId: string
  /** The hunk's index, or `all` for a whole-file pick. */
  hunk: number | 'all'
  /** `base`: the base changed the same lines since the fork; otherwise the other pick's session. */
  with: 'base' | { sessionId: string; hunk: number | 'all' }
  why: string
}

/** The three-way preview of a file with a conflict: the fork point, the base with the clean picks, the session's side, and git's merge with diff3 markers. */
export interface ThreeWay {
  sessionId: string
  base: string
  ours: string
  theirs: string
  merged: string
}

/** What Apply would do to one file of the base; nothing is written while planning. */
export interface MergePlanFile {
  path: string
  /** The base's text now (absent: no such file, or not text). */
  current?: string
  /** What Apply writes (`write`), the session's bytes it copies whole (`copy`), a removal (`delete`), or nothing (`none`). */
  action: 'write' | 'copy' | 'delete' | 'none'
  /** The text `write` puts there. */
  result?: string
  /** `copy`: the session whose file is copied, and the sha256 it must still have. */
  copyFrom?: { sessionId: string; hash: string }
  /** The base has uncommitted changes of the user's in this file: Apply asks first. */
  dirty: boolean
  /** Held back until resolved (not in `result`). */
  conflicts: MergeConflict[]
  preview: ThreeWay[]
  /** Whether a resolution the user wrote stands in for the merge. */
  resolved: boolean
  /** Changes when the base's file or a picked session's file changes: Apply refuses a stale preview. */
  fingerprint: string
}

/** Why a pick cannot be planned at all (the file is no longer changed, a symbolic link…). */
export interface MergeRefusal {
  sessionId: string
  path: string
  why: string
}

/** A merge plan: per file what Apply would write, and the picks it refused. */
export interface MergePlan {
  files: MergePlanFile[]
  refused: MergeRefusal[]
}

/** The base's file now: its bytes and text (absent: no such file), or why it cannot be merged into. */
export interface BaseFile {
  bytes?: Buffer
  text?: string
  refused?: string
}

/** One session's picks on one file, with what they are made against. */
export interface Side {
  source: MergeSource
  file: WorktreeFile
  picks: readonly number[] | 'all'
}
