import type { AgentEvent } from '../../shared/protocol/agent-event'
import { emptyTree, foldTree, settleInterrupted, type AgentTree } from '../../shared/protocol/agent-tree'
import type { TaskItem } from '../../shared/protocol/task'
import { loadTranscript } from '../store/transcript'
import { loadSidechain, loadSidechains } from './sidechain'

/** What the tree of one session is built from besides its transcripts. */
export interface TreeSources {
  sessionId: string
  /** The session's transcript (its sidechains are beside it). */
  transcriptPath: string
  /** Nodes running in this process now (nothing, for a session no one has open). */
  live: ReadonlySet<string>
  /** The session's task list as it is now (tasks live on disk, not in transcripts). */
  tasks?: { listId: string; tasks: TaskItem[] }
  now?: number
}

/**
 * The tree of a session rebuilt from disk: the session's transcript, then every sidechain (parents
 * before the agents they started), then the task list; whatever was running and is not running
 * now is marked stopped. This is what the tree shows after a reload of the window or a restart.
 */
export async function storedAgentTree(sources: TreeSources): Promise<AgentTree> {
  let tree = emptyTree(sources.sessionId)
  const main = await loadTranscript(sources.transcriptPath).catch(() => undefined)
  for (const event of main?.events ?? []) tree = foldTree(tree, event)
  for (const agent of await loadSidechains(sources.transcriptPath)) {
    for (const event of agent.transcript.events) tree = foldTree(tree, event)
  }
  if (sources.tasks && sources.tasks.tasks.length > 0) {
    const event: AgentEvent = { type: 'task_update', sessionId: sources.sessionId, agentId: 'main', listId: sources.tasks.listId, tasks: sources.tasks.tasks, deleted: [], actor: 'main' }
    tree = foldTree(tree, event)
  }
  return settleInterrupted(tree, sources.live, sources.now ?? Date.now())
}

/**
 * One subagent's stored events, to open its conversation read-only; the main agent's (`main`)
 * come from the session's transcript. Undefined when there is no such agent.
 */
export async function storedAgentEvents(transcriptPath: string, agentId: string): Promise<{ events: AgentEvent[]; times: number[] } | undefined> {
  const loaded = agentId === 'main' ? await loadTranscript(transcriptPath).catch(() => undefined) : await loadSidechain(transcriptPath, agentId)
  return loaded && { events: loaded.events, times: loaded.eventTimes }
}
