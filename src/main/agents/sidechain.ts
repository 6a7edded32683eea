import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isSessionId, loadTranscript, type LoadedTranscript } from '../store/transcript'

/**
 * Sidechain transcripts: every subagent's conversation and events in a file of its own beside the
 * session's, `<sessions>/<session-id>/agents/<agent-id>.jsonl` (the session's transcript is
 * `<sessions>/<session-id>.jsonl`). Same format and guarantees as a session transcript (see
 * store/transcript): written line by line as things happen, so each agent's history survives a
 * crash, a restart and `--resume`. The first event is the agent's `agent_start`.
 */

/** Folder of a session's sidechains, from the session transcript's path. */
export function sidechainDir(sessionTranscript: string): string {
  return join(sessionTranscript.replace(/\.jsonl$/, ''), 'agents')
}

/** One agent's sidechain. Agent ids are checked like session ids before they become paths. */
export function sidechainPath(sessionTranscript: string, agentId: string): string {
  if (!isSessionId(agentId)) throw new Error(`not an agent id: ${JSON.stringify(agentId.slice(0, 50))}`)
  return join(sidechainDir(sessionTranscript), `${agentId}.jsonl`)
}

/** A stored subagent: its id and what its sidechain holds. */
export interface StoredAgent {
  agentId: string
  transcript: LoadedTranscript
}

/** Every sidechain of a session, oldest agent first (by its `agent_start`); unreadable files are left out. */
export async function loadSidechains(sessionTranscript: string): Promise<StoredAgent[]> {
  const dir = sidechainDir(sessionTranscript)
  const names = await readdir(dir).catch(() => [] as string[])
  const loaded = await Promise.all(
    names
      .filter((name) => name.endsWith('.jsonl') && isSessionId(name.slice(0, -6)))
      .map(async (name) => {
        const transcript = await loadTranscript(join(dir, name)).catch(() => undefined)
        return transcript ? { agentId: name.slice(0, -6), transcript } : undefined
      }),
  )
  const agents = loaded.filter((agent): agent is StoredAgent => agent !== undefined)
  return agents.sort((a, b) => startOf(a) - startOf(b))
}

/** One agent's stored sidechain, or undefined. */
export async function loadSidechain(sessionTranscript: string, agentId: string): Promise<LoadedTranscript | undefined> {
  if (!isSessionId(agentId)) return undefined
  return loadTranscript(sidechainPath(sessionTranscript, agentId)).catch(() => undefined)
}

function startOf(agent: StoredAgent): number {
  const start = agent.transcript.events.find((event) => event.type === 'agent_start')
  return start?.type === 'agent_start' ? start.at : Number.MAX_SAFE_INTEGER
}
