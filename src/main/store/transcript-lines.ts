import { z } from 'zod'
import { AgentEvent } from '../../shared/protocol/agent-event'
import { CompactionRecord } from '../../shared/protocol/compaction'
import type { AssistantBlock, Message, UserBlock } from '../services/model/types'

/**
 * Reading one transcript line, trusting nothing: a line is JSON written by an older Sous, cut by a
 * crash, or edited by hand. Each entry's shape is checked; a message keeps the blocks the API
 * accepts and loses the ones it would refuse (a repair), and anything else is a problem that skips
 * the line. Never throws.
 */

const Text = z.object({ type: z.literal('text'), text: z.string() }).loose()
const Image = z.object({ type: z.literal('image'), source: z.record(z.string(), z.unknown()) }).loose()
const ToolUse = z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() }).loose()
const ToolResult = z
  .object({ type: z.literal('tool_result'), tool_use_id: z.string().min(1), content: z.union([z.string(), z.array(z.union([Text, Image]))]), is_error: z.boolean().optional() })
  .loose()
const Thinking = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).loose()
const RedactedThinking = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).loose()

const USER_BLOCKS = [Text, Image, ToolResult]
const ASSISTANT_BLOCKS = [Text, ToolUse, Thinking, RedactedThinking]

const RawMessage = z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(z.unknown())]) })
const Stamp = z.string().min(1)

/** One line of a transcript, as written by `TranscriptWriter`. */
export type TranscriptEntry =
  | { type: 'session'; version: 1; sessionId: string; projectPath: string; createdAt: string }
  | { type: 'message'; at: string; message: Message }
  | { type: 'event'; at: string; event: AgentEvent }
  | { type: 'title'; at: string; title: string }
  /**
   * The conversation was replaced (a compaction's boundary, a repair on resume, a rewind to a checkpoint); later messages
   * append to these. Every earlier line stays in the file: the full history is never lost.
   */
  | { type: 'messages_replaced'; at: string; why: 'compaction' | 'repair' | 'rewind'; messages: Message[]; compaction?: CompactionRecord; keepEvents?: number }

/** A line read back: the entry (maybe repaired), or why it was skipped. */
export type LineReading = { entry: TranscriptEntry; repaired: boolean } | { problem: string }

/** Reads one non-empty line. */
export function readLine(line: string): LineReading {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { problem: 'not JSON (cut short?)' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not a JSON object' }
  const raw = value as Record<string, unknown>
  switch (raw['type']) {
    case 'session': {
      const header = z.object({ sessionId: z.string().min(1), projectPath: z.string().min(1), createdAt: Stamp }).safeParse(raw)
      return header.success ? { entry: { type: 'session', version: 1, ...header.data }, repaired: false } : { problem: 'a session header without its id, project or date' }
    }
    case 'message': {
      const at = Stamp.safeParse(raw['at'])
      const message = readMessage(raw['message'])
      if (!at.success || !message) return { problem: 'a message of the wrong shape' }
      return { entry: { type: 'message', at: at.data, message: message.message }, repaired: message.repaired }
    }
    case 'event': {
      const at = Stamp.safeParse(raw['at'])
      const event = AgentEvent.safeParse(raw['event'])
      if (!at.success || !event.success) return { problem: 'an event of the wrong shape' }
      return { entry: { type: 'event', at: at.data, event: event.data }, repaired: false }
    }
    case 'title': {
      const title = z.object({ at: Stamp, title: z.string() }).safeParse(raw)
      return title.success ? { entry: { type: 'title', ...title.data }, repaired: false } : { problem: 'a title of the wrong shape' }
    }
    case 'messages_replaced': {
      const head = z.object({ at: Stamp, why: z.enum(['compaction', 'repair', 'rewind']), messages: z.array(z.unknown()) }).safeParse(raw)
      if (!head.success) return { problem: 'a replaced conversation of the wrong shape' }
      const messages = head.data.messages.map(readMessage)
      if (messages.some((message) => !message)) return { problem: 'a replaced conversation with a message of the wrong shape' }
      const kept = messages.filter((message): message is NonNullable<typeof message> => message !== undefined)
      // The compaction's figures are for people; a boundary whose record does not parse still counts.
      const compaction = CompactionRecord.safeParse(raw['compaction'])
      // A rewind names how many of the stored events (the conversation's cards) it keeps.
      const keepEvents = z.number().int().nonnegative().safeParse(raw['keepEvents'])
      return {
        entry: { type: 'messages_replaced', at: head.data.at, why: head.data.why, messages: kept.map((m) => m.message), ...(compaction.success && { compaction: compaction.data }), ...(keepEvents.success && { keepEvents: keepEvents.data }) },
        repaired: kept.some((m) => m.repaired),
      }
    }
    default:
      return { problem: `an unknown entry type (${JSON.stringify(raw['type'] ?? null).slice(0, 40)})` }
  }
}

/** A message with only the blocks its role may carry; `undefined` when it is not a message at all. */
function readMessage(value: unknown): { message: Message; repaired: boolean } | undefined {
  const raw = RawMessage.safeParse(value)
  if (!raw.success) return undefined
  const { role, content } = raw.data
  if (typeof content === 'string') {
    return role === 'user' ? { message: { role, content }, repaired: false } : { message: { role, content: [{ type: 'text', text: content }] }, repaired: true }
  }
  const allowed = role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS
  const blocks = content.filter((block) => allowed.some((schema) => schema.safeParse(block).success))
  const repaired = blocks.length !== content.length
  // A message left with no blocks is dropped by the conversation repair that follows.
  return role === 'user'
    ? { message: { role, content: blocks as UserBlock[] }, repaired }
    : { message: { role, content: blocks as AssistantBlock[] }, repaired }
}
