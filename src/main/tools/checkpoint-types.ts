/** A call about to run, as checkpoints name it. */
export interface CheckpointedCall {
  toolUseId: string
  name: string
  agentId: string
  /** The tool card's line ("Bash: sed -i …"). */
  summary: string
}

/**
 * Checkpoints around the calls that may change the workspace (see checkpoints/recorder.ts). The
 * engine calls `before` for every call that is neither read-only nor bookkeeping, right before it
 * runs, awaiting it, and `after` once it ran, without awaiting it (it is enqueued at once, and the
 * next call's `before` waits for it); before the model's next request it awaits `landed`: the
 * tree a call left must be recorded before the user can change it unnoticed. Contract: none
 * rejects; a string `before` resolves with is a note for the card (the call runs anyway).
 */
export interface CallCheckpoints {
  before(call: CheckpointedCall): Promise<string | undefined>
  /**
   * The part of a call's checkpoint taken while the call ran (blobs, tree, journal line): the
   * engine claims it once the call ended, right before `after`, and awaits it before the card
   * closes; resolves with a note for the
   * card when that part failed (the checkpoint is then missing). Never rejects.
   */
  tail?(toolUseId: string): Promise<string | undefined>
  after(toolUseId: string): Promise<void>
  /** Resolves once every snapshot asked for so far is recorded. */
  landed?(): Promise<void>
}
