import { join } from 'node:path'

/**
 * The vocabulary of checkpoints: what a recorded tree state is, what one checkpoint says, the
 * store's caps and where it lives under `$SOUS_HOME/checkpoints/`.
 */

/** One file of a tree state, as git names modes: `100644` file, `100755` executable, `120000` symlink, `160000` submodule (gitlink). */
export interface TreeEntry {
  mode: string
  /** Git object id (git states) or sha256 of the content (content-store states); a gitlink's commit. */
  id: string
}

/** A tree state by path (`/`-separated, relative to the state's root). */
export type TreeEntries = Map<string, TreeEntry>

/** A recorded state of the working tree. */
export type TreeState =
  /**
   * A tree in the repository's object store, kept reachable by a commit on
   * `refs/sous/checkpoints/<session>` (made after the snapshot); `head` is the user's HEAD then.
   * `commit` is set only in journals written before the commit moved off the critical path.
   */
  | { kind: 'git'; root: string; commit?: string; tree: string; head: string | null }
  /** A manifest in the content store; `skipped` lists files over the per-file cap (never restored, never deleted). */
  | { kind: 'content'; root: string; manifest: string }
  /** The snapshot failed: the checkpoint cannot restore code. */
  | { kind: 'missing'; reason: string }

/** How a snapshot read the tree: every file (and why), only the paths a watcher saw change, or nothing (none changed). */
export type ScanReport = { kind: 'full'; reason: string } | { kind: 'paths'; paths: number } | { kind: 'unchanged' }

/** What a checkpoint was taken before. */
export type CheckpointTrigger =
  | { kind: 'prompt'; prompt: string }
  | { kind: 'tool'; toolUseId: string; name: string; agentId: string; summary: string }

/** One line of a session's checkpoint journal. */
export type JournalEntry =
  | {
      type: 'checkpoint'
      id: string
      sessionId: string
      projectPath: string
      turn: number
      at: string
      trigger: CheckpointTrigger
      before: TreeState
      /** Bytes of the transcript written when the checkpoint was taken: the conversation then. */
      transcriptBytes: number
    }
  /** The tree as the call left it, recorded after the call (what "the agent left" means for conflicts). */
  | { type: 'after'; id: string; at: string; after: TreeState }

/** A checkpoint with its after-state joined in. */
export type Checkpoint = Extract<JournalEntry, { type: 'checkpoint' }> & { after?: TreeState }

/** Files larger than this are not captured by the content store (nor added, when new, in git mode). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** New content a session may add to the content store; past it snapshots are marked missing. */
export const MAX_SESSION_BYTES = 512 * 1024 * 1024
/** A folder with more files than this is not snapshotted by the content store (marked missing). */
export const MAX_FILES = 100_000

/** `$SOUS_HOME/checkpoints`. */
export function checkpointsDir(home: string): string {
  return join(home, 'checkpoints')
}

/** A session's journal: one JSON line per checkpoint and after-state. */
export function journalPath(home: string, sessionId: string): string {
  return join(checkpointsDir(home), 'sessions', `${sessionId}.jsonl`)
}

/** The private temporary index git snapshots of a session reuse (so only changed files are re-read). */
export function indexPath(home: string, sessionId: string): string {
  return join(checkpointsDir(home), 'index', sessionId)
}

/** The user's and system's git configuration pinned for a session's git runs (see `git-config.ts`). */
export function pinnedConfigPath(home: string, sessionId: string): string {
  return `${indexPath(home, sessionId)}.gitconfig`
}

/** The private ref a session's git checkpoints hang on. */
export function checkpointRef(sessionId: string): string {
  return `refs/sous/checkpoints/${sessionId}`
}
