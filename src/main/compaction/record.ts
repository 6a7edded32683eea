import type { CompactionLayer, CompactionRecord, CompactionTrigger } from '../../shared/protocol/compaction'

/** The measured figures of one compaction (tokens as counted by the session's ledger). */
export interface CompactionFigures {
  before: number
  after: number
  messagesBefore: number
  messagesAfter: number
  harnessMs: number
  summaryMs?: number
  detail: string
}

/** The record a compaction leaves in the session's history, the transcript and the context view. */
export function compactionRecord(layer: CompactionLayer, trigger: CompactionTrigger, status: CompactionRecord['status'], at: number, figures: CompactionFigures): CompactionRecord {
  return {
    layer,
    trigger,
    status,
    tokensBefore: figures.before,
    tokensAfter: figures.after,
    messagesBefore: figures.messagesBefore,
    messagesAfter: figures.messagesAfter,
    harnessMs: roundMs(figures.harnessMs),
    ...(figures.summaryMs !== undefined && { summaryMs: roundMs(figures.summaryMs) }),
    detail: figures.detail,
    at: new Date(at).toISOString(),
  }
}

/** Milliseconds to two decimals (records are read by people and compared in benches). */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100
}
