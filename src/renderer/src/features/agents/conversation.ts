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
      const at = streamingAt(entries)
      if (at !== -1) return entries.map((entry, index) => (index === at ? live((entry as { text: string }).text + event.text) : entry))
      return [...entries, live(event.text)]
    }
    case 'assistant_message':
      return withReplyText(entries, event.text)
    case 'tool_state': {
      const index = entries.findIndex((entry) => entry.kind === 'tool' && entry.toolUseId === event.toolUseId)
      if (index === -1) return [...entries, opening({ kind: 'tool', toolUseId: event.toolUseId, name: event.name, summary: event.summary ?? '' })]
      const entry = entries[index]!
      if (entry.kind !== 'tool' || !event.summary || entry.summary === event.summary) return [...entries]
      return entries.map((current, at) => (at === index ? carry(entry, { ...entry, summary: event.summary! }) : current))
    }
    case 'tool_end': {
      const index = entries.findIndex((entry) => entry.kind === 'tool' && entry.toolUseId === event.toolUseId)
      const ended = { kind: 'tool' as const, toolUseId: event.toolUseId, name: event.name, summary: '', result: event.content, isError: event.isError }
      if (index === -1) return [...entries, ended]
      return entries.map((entry, at) => (at === index && entry.kind === 'tool' ? carry(entry, { ...entry, result: event.content, isError: event.isError }) : entry))
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
// Tool entries of the reply still streaming: its text belongs before them (the model wrote it first).
const open = new WeakSet<ConversationEntry>()

function live(text: string): ConversationEntry {
  const entry: ConversationEntry = { kind: 'text', text }
  streaming.add(entry)
  return entry
}

function opening(entry: ConversationEntry): ConversationEntry {
  open.add(entry)
  return entry
}

/** `next` replaces `entry`, still part of the open reply if `entry` was. */
function carry(entry: ConversationEntry, next: ConversationEntry): ConversationEntry {
  if (open.has(entry)) open.add(next)
  return next
}

/** Where the reply's streamed text is, among the entries of the open reply; -1 if none. */
function streamingAt(entries: readonly ConversationEntry[]): number {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!
    if (streaming.has(entry)) return index
    if (!open.has(entry)) return -1
  }
  return -1
}

/**
 * The whole reply arrived: its text replaces what streamed of it, or (a stored history has no
 * deltas) goes before the reply's tool calls, where it was written; the reply is then closed.
 */
function withReplyText(entries: readonly ConversationEntry[], text: string): ConversationEntry[] {
  const streamed = streamingAt(entries)
  let place = entries.length
  while (place > 0 && open.has(entries[place - 1]!)) place--
  if (streamed !== -1) place = streamed
  const rest = entries.filter((_, index) => index !== streamed)
  for (const entry of rest) open.delete(entry)
  return text.trim() === '' ? rest : [...rest.slice(0, place), { kind: 'text', text }, ...rest.slice(place)]
}

/** A tool's line without its name said twice (`summarize` may start with it: "Read src/a.ts"). */
export function toolDetail(name: string, summary: string): string {
  if (summary === name) return ''
  return summary.startsWith(`${name} `) ? summary.slice(name.length + 1) : summary
}

function endText(event: Extract<AgentEvent, { type: 'agent_end' }>): string {
  const seconds = (event.durationMs / 1000).toFixed(1)
  if (event.status === 'completed') return `Finished in ${seconds}s, ${event.turns} turn${event.turns === 1 ? '' : 's'}.`
  return `${event.status === 'stopped' ? 'Stopped' : 'Failed'} after ${seconds}s${event.message ? `: ${event.message}` : '.'}`
}
