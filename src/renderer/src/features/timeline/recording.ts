import type { RequestOutput } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { mergeStreams, type Recording, type Stream } from './replay'

/** How many subagents' transcripts a recording reads at most (a tree of hundreds is read in part). */
const MAX_AGENTS = 200

/**
 * A stored session's recording: its own events (`main`, when the caller already has the
 * `session.history` answer; else asked for) and each subagent's, read from their transcripts
 * (`agents.tree`, then `agents.history` per agent), merged by the times the transcripts recorded.
 * A subagent whose transcript cannot be read is left out (its lane is missing, the rest is there).
 * Rejects with the reason when the session's own history cannot be read.
 */
export async function loadRecording(sessionId: string, main?: RequestOutput<'session.history'>): Promise<Recording> {
  const own = main ?? (await ownHistory(sessionId))
  const tree = await api.invoke('agents.tree', { sessionId })
  const agentIds = tree.ok ? Object.values(tree.value.nodes).filter((node) => node.kind === 'agent').map((node) => node.id).slice(0, MAX_AGENTS) : []
  const agents = await Promise.all(
    agentIds.map(async (agentId): Promise<Stream | undefined> => {
      const result = await api.invoke('agents.history', { sessionId, agentId })
      return result.ok ? { events: result.value.events, ...(result.value.times && { times: result.value.times }) } : undefined
    }),
  )
  return mergeStreams({ events: own.events, ...(own.times && { times: own.times }) }, agents.filter((stream) => stream !== undefined))
}

async function ownHistory(sessionId: string): Promise<RequestOutput<'session.history'>> {
  const result = await api.invoke('session.history', { sessionId })
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}
