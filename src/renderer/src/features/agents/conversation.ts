import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { compactionLine } from '../../../../shared/protocol/compaction'

/** One entry of an agent's conversation as the read-only view shows it. */
export type ConversationEntry =
  | { kind: 'prompt'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; toolUseId: string; name: string; summary: string; result?: string; isError?: boolean }
  | { kind: 'end'; text: string; failed: boolean }
  /** What compaction did to its conversation (as the main conversation shows it). */
  | { kind: 'compaction'; text: string; failed: boolean }

/**
 * Folds one agent's events into entries: its prompts, its replies, its tool calls with their
 * results, what compaction did to it, and how its run ended. Streaming text is shown from `text_delta` until the whole reply
 * (`assistant_message`) replaces it, so a live agent reads the same as a stored one. Pure.
 */
export function foldConversation(entries: readonly ConversationEntry[], event: AgentEvent): ConversationEntry[] {
  switch (event.type) {
    case 'turn_start':
      return [...entries, { kind: 'prompt', text: event.prompt }]
    case 'agent_start':
      // A subagent's runs begin here (its first prompt, or a message sent after it ended).
      return [...entries, { kind: 'prompt', text: event.prompt }]
    case 'text_delta': {
      const last = entries.at(-1)
      if (last?.kind === 'text' && streaming.has(last)) return [...entries.slice(0, -1), live(last.text + event.text)]
      return [...entries, live(event.text)]
    }
    case 'assistant_message': {
      const last = entries.at(-1)
      const kept = last?.kind === 'text' && streaming.has(last) ? entries.slice(0, -1) : entries
      return event.text.trim() === '' ? [...kept] : [...kept, { kind: 'text', text: event.text }]
    }
    case 'tool_state': {
      const index = entries.findIndex((entry) => entry.kind === 'tool' && entry.toolUseId === event.toolUseId)
      if (index === -1) return [...entries, { kind: 'tool', toolUseId: event.toolUseId, name: event.name, summary: event.summary ?? '' }]
      const entry = entries[index]!
      if (entry.kind !== 'tool' || !event.summary || entry.summary === event.summary) return [...entries]
      return entries.map((current, at) => (at === index ? { ...entry, summary: event.summary! } : current))
    }
    case 'tool_end': {
      const index = entries.findIndex((entry) => entry.kind === 'tool' && entry.toolUseId === event.toolUseId)
      const ended = { kind: 'tool' as const, toolUseId: event.toolUseId, name: event.name, summary: '', result: event.content, isError: event.isError }
      if (index === -1) return [...entries, ended]
      return entries.map((entry, at) => (at === index && entry.kind === 'tool' ? { ...entry, result: event.content, isError: event.isError } : entry))
    }
    case 'compaction':
      return [...entries, { kind: 'compaction', text: compactionLine(event), failed: event.status !== 'done' }]
    case 'agent_end':
      return [...entries, { kind: 'end', text: endText(event), failed: event.status !== 'completed' }]
    case 'turn_end':
      // A subagent's end is told by its agent_end.
      return event.reason === 'completed' || event.agentId !== 'main' ? [...entries] : [...entries, { kind: 'end', text: `The turn ended: ${event.reason}${event.message ? ` (${event.message})` : ''}.`, failed: true }]
    default:
      return [...entries]
  }
}

/** Every entry of a list of events. */
export function conversationOf(events: readonly AgentEvent[]): ConversationEntry[] {
  let entries: ConversationEntry[] = []
  for (const event of events) entries = foldConversation(entries, event)
  return entries
}

// Text entries still streaming (replaced by the whole reply when it arrives).
const streaming = new WeakSet<ConversationEntry>()

function live(text: string): ConversationEntry {
  const entry: ConversationEntry = { kind: 'text', text }
  streaming.add(entry)
  return entry
}

function endText(event: Extract<AgentEvent, { type: 'agent_end' }>): string {
  const seconds = (event.durationMs / 1000).toFixed(1)
  if (event.status === 'completed') return `Finished in ${seconds}s, ${event.turns} turn${event.turns === 1 ? '' : 's'}.`
  return `${event.status === 'stopped' ? 'Stopped' : 'Failed'} after ${seconds}s${event.message ? `: ${event.message}` : '.'}`
}
