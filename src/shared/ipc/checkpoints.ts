import { z } from 'zod'
import { Id } from './common'

/** A checkpoint id as the journal names them (`ck_` and hex). */
const CheckpointId = z.string().regex(/^ck_[0-9a-f]{1,40}$/, 'a checkpoint id looks like ck_1a2b3c4d5e')
/** A path relative to the project, `/`-separated, as a restore plan names it. */
const RelativePath = z.string().min(1).max(4096)

/** One checkpoint as the rewind picker lists it. */
export const CheckpointRow = z.object({
  id: z.string(),
  turn: z.number().int(),
  at: z.string(),
  kind: z.enum(['prompt', 'tool']),
  /** What followed it: the prompt, or the call (`Bash: sed -i …`). */
  followedBy: z.string(),
  /** Files it differs in from the previous checkpoint. */
  changed: z.array(z.string()),
  /** Why it cannot restore code, when its snapshot failed. */
  missing: z.string().optional(),
  /** The engine's id of the turn a prompt checkpoint came before (the chat's turn marker). */
  turnId: z.string().optional(),
})
export type CheckpointRow = z.infer<typeof CheckpointRow>

/** One file a restore would change, with both sides for the per-hunk diff when they are text. */
export const PreviewFile = z.object({
  path: z.string(),
  /** `restore`: written back; `create`: it was there at the checkpoint and is gone now; `delete`: it is new since. */
  change: z.enum(['restore', 'create', 'delete']),
  /** The file now (left side) and at the checkpoint (right side); absent for binary or very large files, which restore whole. */
  current: z.string().optional(),
  target: z.string().optional(),
  /** Changed since the checkpoint by someone other than the agent: kept unless the user chooses to overwrite it. */
  conflict: z.boolean(),
})
export type PreviewFile = z.infer<typeof PreviewFile>

const Skipped = z.array(z.object({ path: z.string(), why: z.string() }))
const RewindMode = z.enum(['code', 'conversation', 'both'])

/**
 * `checkpoints.*`: the app's rewind (issue 26). A session's checkpoints (`list`); what restoring one
 * would change, file by file with both sides for the per-hunk view (`preview`, nothing written);
 * the restore itself with the user's choices (`restore`); and a new session whose conversation ends
 * at the checkpoint (`fork`). Refusals (no such checkpoint, HEAD moved, a damaged store, a turn
 * running) are NOT_FOUND / CONFLICT with the reason, and nothing is written.
 */
export const checkpointsRequests = {
  /** The session's checkpoints, oldest first. */
  'checkpoints.list': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ checkpoints: z.array(CheckpointRow) }),
  },
  /** What restoring the checkpoint's code would write, and the conflicts it would keep. */
  'checkpoints.preview': {
    input: z.object({ sessionId: Id, checkpointId: CheckpointId }).strict(),
    output: z.object({ files: z.array(PreviewFile), skipped: Skipped }),
  },
  /**
   * Restores code, conversation or both. `paths`: the files chosen (default: every change);
   * `overwrite`: conflicts the user chose to overwrite (others are kept); `contents`: a file's text
   * with some hunks deselected (the right side of the diff as it then reads).
   */
  'checkpoints.restore': {
    input: z
      .object({
        sessionId: Id,
        checkpointId: CheckpointId,
        mode: RewindMode,
        paths: z.array(RelativePath).max(100_000).optional(),
        overwrite: z.array(RelativePath).max(100_000).optional(),
        contents: z.record(RelativePath, z.string().max(16 * 1024 * 1024)).optional(),
      })
      .strict(),
    output: z.object({ restored: z.array(z.string()), kept: z.array(z.string()), skipped: Skipped, messages: z.number().int().optional() }),
  },
  /** A new session whose conversation is the original's at the checkpoint; the original stays as it was. */
  'checkpoints.fork': {
    input: z.object({ sessionId: Id, checkpointId: CheckpointId }).strict(),
    output: z.object({ sessionId: z.string() }),
  },
  /**
   * The files one call changed, from the checkpoints before and after it (the timeline's hover on
   * a Bash step or any mutating call): `recorded` with the paths (the first 50; `more` counts the
   * rest), `pending` while the tree it left is still being recorded, `missing` when a snapshot
   * failed, `none` when no checkpoint was taken around it (a read-only call, or checkpoints off).
   */
  'checkpoints.callFiles': {
    input: z.object({ sessionId: Id, toolUseId: z.string().min(1).max(200) }).strict(),
    output: z.object({ state: z.enum(['recorded', 'pending', 'missing', 'none']), files: z.array(z.string()), more: z.number().int() }),
  },
} as const
