import { Journal } from './journal'
import type { Checkpoint, TreeState } from './types'
import type { Workspace } from './workspace'

/** One checkpoint as `sous checkpoints` and the rewind menu show it. */
export interface CheckpointSummary {
  id: string
  turn: number
  at: string
  /** What followed it: the prompt, or the call (`Bash: sed -i …`). */
  followedBy: string
  kind: 'prompt' | 'tool'
  /** Files it differs in from the previous checkpoint (empty for the first). */
  changed: string[]
  /** Why it cannot restore code, when its snapshot failed. */
  missing?: string
}

/** A session's checkpoints, oldest first, each with the files it differs in from the one before. Never throws for a damaged state: its `changed` is empty. */
export async function summarizeCheckpoints(workspace: Workspace, checkpoints: readonly Checkpoint[]): Promise<CheckpointSummary[]> {
  const out: CheckpointSummary[] = []
  let previous: TreeState | undefined
  for (const checkpoint of checkpoints) {
    const state = checkpoint.before
    // Two states compared by the store (git: `diff-tree`, which reads only the subtrees that differ).
    const changed = state.kind !== 'missing' && previous ? await workspace.diff(previous, state).catch(() => undefined) : []
    if (state.kind !== 'missing' && changed !== undefined) previous = state
    const trigger = checkpoint.trigger
    out.push({
      id: checkpoint.id,
      turn: checkpoint.turn,
      at: checkpoint.at,
      kind: trigger.kind,
      followedBy: trigger.kind === 'prompt' ? `prompt: ${trigger.prompt}` : `${trigger.summary || trigger.name}${trigger.agentId !== 'main' ? ` (${trigger.agentId})` : ''}`,
      changed: changed ?? [],
      ...(state.kind === 'missing' && { missing: state.reason }),
    })
  }
  return out
}

/** A session's checkpoints from its journal. */
export function readCheckpoints(home: string, sessionId: string): Promise<Checkpoint[]> {
  return Journal.of(home, sessionId).read()
}
