import { contextWindowOf } from '../../shared/context-window'

/**
 * Where each compaction layer starts, for one session. Derived from the model's context window
 * (Claude Code's figures: auto-compact at window − reserved output − 13,000; collapse at 90 % and
 * 95 %); everything else has a default tests and benchmarks may override.
 */
export interface CompactionSettings {
  /** Tokens the model takes in one request. */
  contextWindow: number
  /** Output kept free: the smaller of the session's largest output limit and 20,000 (the summary's own limit). */
  reservedOutput: number
  /** Auto-compact when the conversation reaches this many tokens. */
  autoCompactAt: number
  /** Collapse (a read-time projection) starts here… */
  collapseAt: number
  /** …and drops whole old rounds from here. */
  hardCollapseAt: number
  /** Snip when the conversation has more messages than this… */
  snipAbove: number
  /** …down to about this many (the first prompt plus the newest messages). */
  snipTo: number
  /** Micro-compact when the conversation reaches this many tokens… */
  microAt: number
  /** …or when no request went out for this long (the prompt cache has expired, so rewriting costs nothing). */
  idleMs: number
  /** Micro-compact keeps this many of the newest re-fetchable results as they are. */
  keepRecentResults: number
  /** Results shorter than this are never cleared (a placeholder would save nothing). */
  minClearChars: number
  /**
   * Micro-compact by size only when it would clear at least this many tokens: each one rewrites an
   * earlier message and so costs a cache write of everything after it, which a few saved tokens do
   * not repay. (After an idle spell the cache is gone anyway, and any saving counts.)
   */
  microMinSavings: number
  /** Output limit of the summary request. */
  summaryMaxTokens: number
  /** Consecutive failed auto-compactions before auto-compaction stops for the session. */
  maxFailures: number
  /** Re-issues of a summary whose stream broke. */
  summaryStreamRetries: number
  /** After compaction: files re-read, tokens for all of them, tokens per file. */
  restoreFiles: number
  restoreTokens: number
  restoreTokensPerFile: number
}

/** Tokens kept free under the auto-compact threshold, so a reply and a round of results still fit. */
export const AUTO_COMPACT_BUFFER = 13_000
/** The summary's output limit (Claude Code measured the 99.99th percentile of summaries at ~17.4k). */
export const SUMMARY_MAX_TOKENS = 20_000

/**
 * The settings for a model. `contextWindow` overrides the model's window (`SOUS_CONTEXT_WINDOW`);
 * `maxOutputTokens` is the largest output limit the session may ask for.
 */
export function compactionSettings(options: { model?: string; contextWindow?: number; maxOutputTokens?: number; overrides?: Partial<CompactionSettings> } = {}): CompactionSettings {
  const contextWindow = options.overrides?.contextWindow ?? options.contextWindow ?? contextWindowOf(options.model)
  const reservedOutput = Math.min(options.maxOutputTokens ?? 64_000, SUMMARY_MAX_TOKENS)
  const derived: CompactionSettings = {
    contextWindow,
    reservedOutput,
    autoCompactAt: Math.max(Math.floor(contextWindow / 2), contextWindow - reservedOutput - AUTO_COMPACT_BUFFER),
    collapseAt: Math.floor(contextWindow * 0.9),
    hardCollapseAt: Math.floor(contextWindow * 0.95),
    snipAbove: 400,
    snipTo: 200,
    microAt: Math.floor(contextWindow * 0.5),
    idleMs: 5 * 60_000,
    keepRecentResults: 5,
    minClearChars: 400,
    microMinSavings: Math.min(20_000, Math.floor(contextWindow * 0.1)),
    summaryMaxTokens: Math.min(SUMMARY_MAX_TOKENS, Math.floor(contextWindow / 4)),
    maxFailures: 3,
    summaryStreamRetries: 2,
    restoreFiles: 5,
    restoreTokens: Math.min(50_000, Math.floor(contextWindow / 4)),
    restoreTokensPerFile: Math.min(5_000, Math.floor(contextWindow / 20)),
  }
  return { ...derived, ...options.overrides, contextWindow }
}

/** `SOUS_CONTEXT_WINDOW` as a number of tokens, when it is one (at least 1,000). */
export function contextWindowFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['SOUS_CONTEXT_WINDOW']?.trim()
  if (!raw || !/^\d+$/.test(raw)) return undefined
  const value = Number(raw)
  return value >= 1_000 ? value : undefined
}
