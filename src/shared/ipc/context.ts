import { z } from 'zod'
import { CompactionLayer, CompactionRecord } from '../protocol/compaction'
import { Id } from './common'

/** One sized part of the next request. */
export const ContextItem = z.object({
  label: z.string(),
  tokens: z.number(),
  /** A path, a count, a note. */
  detail: z.string().optional(),
})
export type ContextItem = z.infer<typeof ContextItem>

/** A group of parts, drawn as one segment of the bar. */
export const ContextGroup = z.object({
  id: z.enum(['system', 'instructions', 'sections', 'tools', 'messages']),
  label: z.string(),
  tokens: z.number(),
  items: z.array(ContextItem),
})
export type ContextGroup = z.infer<typeof ContextGroup>

/** What a layer would do next, before it runs. */
export const CompactionPreview = z.object({
  layer: CompactionLayer,
  /** Where it starts (tokens, or messages for snip). */
  at: z.number(),
  unit: z.enum(['tokens', 'messages']),
  /** The conversation is at or past it: the layer runs before the next request. */
  due: z.boolean(),
  /** What it would remove or rewrite. */
  summary: z.string(),
  items: z.array(z.string()),
})
export type CompactionPreview = z.infer<typeof CompactionPreview>

/** What the next request of a session will contain, sized in tokens, and what compaction has done and would do. */
export const ContextBreakdown = z.object({
  sessionId: z.string(),
  model: z.string(),
  window: z.number(),
  /** Estimated tokens of the next request (the API's figure for what it has seen, plus estimates). */
  total: z.number(),
  messageCount: z.number(),
  groups: z.array(ContextGroup),
  thresholds: z.object({ micro: z.number(), autoCompact: z.number(), collapse: z.number(), hardCollapse: z.number(), snipMessages: z.number() }),
  next: z.array(CompactionPreview),
  history: z.array(CompactionRecord),
  /** Automatic compaction stopped after failing too often. */
  autoCompactOff: z.boolean(),
  /** Parts of the instruction files that were left out, and why. */
  notes: z.array(z.string()),
})
export type ContextBreakdown = z.infer<typeof ContextBreakdown>

/** `context.*`: what a session's next request holds, and compaction on demand. */
export const contextRequests = {
  /** The context view's figures for a session (opened or resumed in this process). */
  'context.inspect': { input: z.object({ sessionId: Id }).strict(), output: ContextBreakdown },
  /**
   * `/compact [instructions]`: summarizes the conversation now (its events stream as a turn), or —
   * while a turn runs — before that turn's next request (`queued`).
   */
  'context.compact': {
    input: z.object({ sessionId: Id, instructions: z.string().max(10_000).optional() }).strict(),
    output: z.object({ queued: z.boolean() }),
  },
} as const
