import { createTwoFilesPatch } from 'diff'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { compactionLine } from '../../shared/protocol/compaction'
import { mergeStreams, type Recording } from '../../shared/protocol/recording'
import { loadSidechains } from '../agents/sidechain'
import { findTranscriptFile, summarize } from '../store/session-index'
import type { LoadedTranscript } from '../store/transcript'
import { replayPage, type ReplayDocument, type ReplayItem } from './session-replay-page'

export type { ReplayDocument, ReplayItem }

/**
 * A stored session as one self-contained HTML page that replays it: the conversation step by
 * step, the diffs as they landed, the Agent terminal's commands with their output, and the
 * timeline of steps with a lane per subagent, playable at 1×–20×. Read from the transcripts
 * (the session's and its subagents'); nothing calls the model. The page itself is
 * `session-replay-page.ts`: every string from the transcript reaches it as JSON data that its
 * script puts into text nodes, never markup.
 */

/** Most characters of one result or diff the page keeps. */
const MAX_TEXT = 20_000

/** The session `loaded` (found at its transcript path) as an HTML replay, named for saving. */
export async function sessionReplayHtml(home: string, loaded: LoadedTranscript): Promise<{ fileName: string; html: string }> {
  const file = await findTranscriptFile(home, loaded.sessionId)
  const agents = file ? await loadSidechains(file) : []
  const recording = mergeStreams({ events: loaded.events, times: loaded.eventTimes }, agents.map(({ transcript }) => ({ events: transcript.events, times: transcript.eventTimes })))
  const summary = summarize(loaded)
  const firstPrompt = loaded.events.find((event) => event.type === 'turn_start')
  const title = !loaded.title && summary.title === 'New session' && firstPrompt?.type === 'turn_start' ? firstPrompt.prompt.split('\n')[0]!.slice(0, 80) : summary.title
  const document = replayDocument(recording, { title, projectPath: summary.projectPath, sessionId: summary.sessionId, createdAt: summary.createdAt })
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'session'
  return { fileName: `${slug}.replay.html`, html: replayPage(document) }
}

/** The steps of a recording, as the page shows them. Pure. */
export function replayDocument(recording: Recording, about: Omit<ReplayDocument, 'lanes' | 'items'>): ReplayDocument {
  const lanes: ReplayDocument['lanes'] = [{ id: 'main', label: 'Main agent' }]
  const items: ReplayItem[] = []
  const inputs = new Map<string, { name: string; input: unknown }>()
  recording.events.forEach((event, index) => {
    const at = recording.times[index] ?? 0
    const lane = event.parentToolUseId ? event.agentId : 'main'
    const item = itemOf(event, lane, at, inputs, lanes)
    if (item) items.push(item)
  })
  return { ...about, lanes, items }
}

function itemOf(event: AgentEvent, lane: string, at: number, inputs: Map<string, { name: string; input: unknown }>, lanes: ReplayDocument['lanes']): ReplayItem | undefined {
  switch (event.type) {
    case 'turn_start':
      return lane === 'main' ? { lane, kind: 'prompt', at, title: 'You', text: event.prompt } : undefined
    case 'assistant_message':
      return event.text.trim() ? { lane, kind: 'reply', at, title: lane === 'main' ? 'Sous' : 'Subagent', text: event.text } : undefined
    case 'tool_state':
      if (event.input !== undefined) inputs.set(event.toolUseId, { name: event.name, input: event.input })
      return undefined
    case 'tool_end':
      return toolItem(event, lane, at, inputs.get(event.toolUseId)?.input)
    case 'compaction':
      return { lane, kind: 'compaction', at, title: compactionLine(event), failed: event.status !== 'done' }
    case 'agent_start':
      if (!lanes.some((known) => known.id === event.agentId)) lanes.push({ id: event.agentId, label: `${event.agentType}: ${event.description}` })
      return { lane: event.agentId, kind: 'agent', at, title: `Started ${event.agentType}: ${event.description}`, text: event.prompt }
    case 'agent_end':
      return { lane: event.agentId, kind: 'agent', at, title: `Ended (${event.status})`, text: event.result, failed: event.status !== 'completed' }
    case 'turn_end':
      return lane === 'main' && event.reason !== 'completed' ? { lane, kind: 'end', at, title: `Turn ended: ${event.reason}${event.message ? ` — ${event.message}` : ''}`, failed: true } : undefined
    default:
      return undefined
  }
}

function toolItem(event: Extract<AgentEvent, { type: 'tool_end' }>, lane: string, at: number, input: unknown): ReplayItem {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  const telling = ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'description'].map((key) => record[key]).find((value) => typeof value === 'string') as string | undefined
  const title = `${event.name}${telling ? `${event.name === 'Bash' ? ':' : ''} ${telling.split('\n')[0]!.slice(0, 120)}` : ''}`
  const details = (event.details ?? {}) as { filePath?: unknown; before?: unknown; after?: unknown; exitCode?: unknown }
  const diff =
    typeof details.before === 'string' && typeof details.after === 'string' && !event.isError
      ? cut(createTwoFilesPatch(`a/${String(details.filePath ?? 'file')}`, `b/${String(details.filePath ?? 'file')}`, details.before, details.after, undefined, undefined, { context: 3 }).replace(/^=+\n/, ''))
      : undefined
  const command = event.name === 'Bash' && lane === 'main' && typeof record['command'] === 'string' ? { line: record['command'], exitCode: typeof details.exitCode === 'number' ? details.exitCode : null } : undefined
  return { lane, kind: 'tool', at, title, text: cut(event.content), ...(diff && { diff }), ...(command && { command }), ...(event.isError && { failed: true }) }
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${(text.length - MAX_TEXT).toLocaleString('en-US')} more characters)` : text
}
