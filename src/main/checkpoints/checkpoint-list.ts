import { Journal } from './journal'
import type { Checkpoint } from './types'
import { changedPaths, type Workspace } from './workspace'

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
  let previous: Awaited<ReturnType<Workspace['entries']>> | undefined
  for (const checkpoint of checkpoints) {
    const state = checkpoint.before
    const files = state.kind === 'missing' ? undefined : await workspace.entries(state).catch(() => undefined)
    const changed = files && previous ? changedPaths(previous.entries, files.entries) : []
    if (files) previous = files
    const trigger = checkpoint.trigger
    out.push({
      id: checkpoint.id,
      turn: checkpoint.turn,
      at: checkpoint.at,
      kind: trigger.kind,
      followedBy: trigger.kind === 'prompt' ? `prompt: ${trigger.prompt}` : `${trigger.summary || trigger.name}${trigger.agentId !== 'main' ? ` (${trigger.agentId})` : ''}`,
      changed,
      ...(state.kind === 'missing' && { missing: state.reason }),
    })
  }
  return out
}

/** A session's checkpoints from its journal. */
export function readCheckpoints(home: string, sessionId: string): Promise<Checkpoint[]> {
  return Journal.of(home, sessionId).read()
}
