import { z } from 'zod'

/**
 * What compaction reports: which layer ran, why, and how much it saved. The same record goes out
 * as a `compaction` agent event, into the transcript, and into the context view's history.
 */

/** The compaction layers, cheapest first (the result budget works per message and reports nothing). */
export const CompactionLayer = z.enum(['snip', 'micro', 'collapse', 'auto', 'reactive', 'manual'])
export type CompactionLayer = z.infer<typeof CompactionLayer>

/** Who asked: the harness on its own (a threshold, the model's Compact tool) or the user (`/compact`). Claude Code's PreCompact `trigger`. */
export const CompactionTrigger = z.enum(['auto', 'manual'])
export type CompactionTrigger = z.infer<typeof CompactionTrigger>

/** One compaction as it ended. */
export const CompactionRecord = z.object({
  layer: CompactionLayer,
  trigger: CompactionTrigger,
  /** `done`; `failed` (the summary could not be made; nothing changed); `blocked` (a PreCompact hook said no). */
  status: z.enum(['done', 'failed', 'blocked']),
  /** Estimated tokens of the request before and after (equal when nothing changed). */
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  messagesBefore: z.number(),
  messagesAfter: z.number(),
  /** Time the harness itself spent, excluding the summary request and hooks. */
  harnessMs: z.number(),
  /** Time spent waiting for the summary (summarizing layers only). */
  summaryMs: z.number().optional(),
  /** One line for people: what was removed, cleared or summarized, or why it failed. */
  detail: z.string(),
  /** ISO time it ended. */
  at: z.string(),
})
export type CompactionRecord = z.infer<typeof CompactionRecord>

/** How a person calls a compaction layer. */
export function layerName(layer: CompactionLayer): string {
  const names = { snip: 'snip', micro: 'micro-compaction', collapse: 'collapse', auto: 'automatic summary', reactive: 'summary after an overflow', manual: 'summary on request' }
  return names[layer]
}

/** One line saying what a compaction did (the conversation view and an agent's read-only view). */
export function compactionLine(record: Pick<CompactionRecord, 'layer' | 'status' | 'tokensBefore' | 'tokensAfter' | 'detail'>): string {
  if (record.status === 'blocked') return record.detail
  if (record.status === 'failed') return `Compaction (${layerName(record.layer)}) failed: ${record.detail}`
  return `Compacted (${layerName(record.layer)}): ${tokenCount(record.tokensBefore)} → ${tokenCount(record.tokensAfter)} tokens; ${record.detail}.`
}

/** A token figure as people read it (12k, 3.4k, 950). */
export function tokenCount(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k` : String(tokens)
}
