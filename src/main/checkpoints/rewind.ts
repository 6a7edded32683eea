import { resolve, sep } from 'node:path'
import { readCheckpoints } from './checkpoint-list'
import { rewindConversation } from './conversation'
import { applyRestore, type RestoreOutcome } from './restore-apply'
import { planRestore } from './restore-plan'
import type { Checkpoint } from './types'
import { Workspace } from './workspace'

/** What a rewind restores. */
export type RewindMode = 'code' | 'conversation' | 'both'

/** A rewind that was done (conflicts may have been kept). */
export interface RewindDone extends RestoreOutcome {
  checkpoint: string
  mode: RewindMode
  /** Messages the conversation keeps, when it was rewound. */
  messages?: number
}

/** A rewind that was refused; `badInput` when the request itself was wrong (no such session or checkpoint). Nothing was written. */
export interface RewindRefused {
  error: string
  badInput?: boolean
}

/** What to rewind. */
export interface RewindRequest {
  home: string
  env: NodeJS.ProcessEnv
  sessionId: string
  checkpointId: string
  mode: RewindMode
  force?: boolean
  /** The folder asking: the session must be this project's (or inside it). */
  projectPath?: string
}

/** Finds a session's checkpoint, refusing with bad input when there is none such or it is another project's. */
export async function findCheckpoint(home: string, sessionId: string, checkpointId: string, projectPath?: string): Promise<{ checkpoints: Checkpoint[]; index: number } | RewindRefused> {
  const checkpoints = await readCheckpoints(home, sessionId)
  if (checkpoints.length === 0) return { error: `session ${sessionId} has no checkpoints`, badInput: true }
  const index = checkpoints.findIndex((checkpoint) => checkpoint.id === checkpointId)
  if (index < 0) return { error: `session ${sessionId} has no checkpoint ${checkpointId} (see: sous checkpoints ${sessionId})`, badInput: true }
  const own = resolve(checkpoints[index]!.projectPath)
  if (projectPath !== undefined) {
    const asking = resolve(projectPath)
    if (asking !== own && !asking.startsWith(own + sep)) return { error: `session ${sessionId} belongs to ${own}, not to ${asking}`, badInput: true }
  }
  return { checkpoints, index }
}

/**
 * Rewinds a stored session to a checkpoint: its code (conflicts kept unless `force`), its
 * conversation, or both. Both or neither: the code's files are staged first, then the
 * conversation's line is written (whole or not at all), then the project changes; a disk that
 * refuses either write (full) refuses the rewind with the project and the transcript as they were.
 */
export async function rewind(request: RewindRequest): Promise<RewindDone | RewindRefused> {
  const found = await findCheckpoint(request.home, request.sessionId, request.checkpointId, request.projectPath)
  if ('error' in found) return found
  const checkpoint = found.checkpoints[found.index]!
  let outcome: RestoreOutcome = { restored: [], kept: [], skipped: [] }
  let messages: number | undefined
  let refused: RewindRefused | undefined
  const conversation = async () => {
    try {
      messages = await rewindConversation(request.home, checkpoint)
    } catch (error) {
      refused = { error: `the conversation could not be rewound: ${error instanceof Error ? error.message : String(error)}; nothing was changed` }
      throw error
    }
  }
  if (request.mode !== 'conversation') {
    const workspace = new Workspace({ home: request.home, sessionId: request.sessionId, projectPath: checkpoint.projectPath, env: request.env })
    const plan = await planRestore(workspace, found.checkpoints, found.index)
    if ('error' in plan) return plan
    const applied = await applyRestore(workspace, plan, { force: request.force === true, ...(request.mode === 'both' && { beforeChanging: conversation }) }).catch((error: Error) => refused ?? { error: `the restore failed part way: ${error.message}` })
    if ('error' in applied) return applied
    outcome = applied
  } else {
    await conversation().catch(() => undefined)
    if (refused) return refused
  }
  return { checkpoint: checkpoint.id, mode: request.mode, ...outcome, ...(messages !== undefined && { messages }) }
}
