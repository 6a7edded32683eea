import { contextWindowOf } from '../../shared/context-window'

/**
 * Where each compaction layer starts, for one session: every threshold is derived from the
 * model's context window here, and only here (the manager, the context view and the tests read
 * them from this object). The order on a 200k window, and why:
 *
 * | layer | from | what it costs |
 * |---|---|---|
 * | streak projection (streak.ts) | once under pressure (`pressureAt` reached, or a layer already made room): two rounds in a row with results ≥ `largeResultTokens` | the newest large result goes once as plain input, never cached; older ones are stubs |
 * | snip, micro-compaction | `pressureAt` = 50 % (100k), micro down to `microTo` = 10 % | rewrites earlier messages: one cache write of what follows |
 * | collapse (stubs) | `collapseAt`, halfway to the summary (133.5k), down to `collapseTarget` = 50 % (100k) | a projection of what is sent; the same write |
 * | auto-compact (summary) | `autoCompactAt` = window − reserved output − 13k (167k) | a summary request; lossy |
 * | hard collapse (rounds left out) | `hardCollapseAt` = 95 % (190k) | only when no summary can be had |
 *
 * - Nothing is dropped or rewritten below `pressureAt`: a conversation far from the wall keeps
 *   every message as it was sent (the first fact of a long task stays in view, and the cached
 *   prefix stays valid). Message counts (`snipAbove`) only apply together with it.
 * - Clearing is in bulk, between a high-water mark (`microAt`) and a low-water mark (`microTo`):
 *   each rewrite of an earlier message costs a cache write of everything after it, so clearing a
 *   little every turn would rewrite the whole tail every turn (issue 23: 62 % cache reads).
 * - The cheap projections come before the summary (Claude Code's order): collapse starts below
 *   `autoCompactAt` and auto-compaction judges the request as collapse would send it.
 * - The bill, not the cache-read share, is what is optimised (issue 23's forty-file task: $1.79,
 *   0.54× Claude Code's $3.32, share 0.52). A share of 0.85 costs at least 4.7 USD per million
 *   new tokens whatever the strategy (each new token paid once, 5.67 reads for each): $2.42 there,
 *   0.73× Claude Code's bill; see docs/design/context-and-compaction.md.
 */
export interface CompactionSettings {
  /** Tokens the model takes in one request. */
  contextWindow: number
  /** Output kept free: the smaller of the session's largest output limit and 20,000 (the summary's own limit). */
  reservedOutput: number
  /** Token pressure: below this no layer removes or rewrites an earlier message (half the window). */
  pressureAt: number
  /** Auto-compact when the request (as collapse would send it) reaches this many tokens. */
  autoCompactAt: number
  /** Collapse (a read-time projection) starts here… */
  collapseAt: number
  /** …aims for this size… */
  collapseTarget: number
  /** …and drops whole old rounds from here (only when a summary could not bring it down). */
  hardCollapseAt: number
  /** Snip when the conversation has more messages than this (and is past `pressureAt`)… */
  snipAbove: number
  /** …down to about this many (the first prompt plus the newest messages). */
  snipTo: number
  /** Micro-compact (the high-water mark) when the conversation reaches this many tokens (never below `pressureAt`)… */
  microAt: number
  /** …clearing the oldest re-fetchable results until it is down to this many (the low-water mark). */
  microTo: number
  /**
   * A session idle this long has lost its prompt cache: past `pressureAt`, a clearing of any size
   * is free then. The cache's lifetime: 5 minutes, or an hour with `promptCacheTtl: "1h"` (the
   * requests' breakpoints then live an hour, and clearing after 5 idle minutes would throw away
   * a cache that is still there).
   */
  idleMs: number
  /** Micro-compact keeps this many of the newest re-fetchable results as they are. */
  keepRecentResults: number
  /**
   * A result of a re-read-able tool this big (tokens) is large: of two consecutive rounds with
   * large results only the newer is sent whole, once the session is under token pressure (streak.ts).
   */
  largeResultTokens: number
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

/** Claude Code's `promptCacheTtl`: how long the prompt cache of the session's requests lives. */
export type PromptCacheTtl = '5m' | '1h'

/** Tokens kept free under the auto-compact threshold, so a reply and a round of results still fit. */
export const AUTO_COMPACT_BUFFER = 13_000
/** The summary's output limit (Claude Code measured the 99.99th percentile of summaries at ~17.4k). */
export const SUMMARY_MAX_TOKENS = 20_000

/**
 * The settings for a model. `contextWindow` overrides the model's window (`SOUS_CONTEXT_WINDOW`);
 * `maxOutputTokens` is the largest output limit the session may ask for; `promptCacheTtl` the
 * lifetime of its prompt cache (the idle spell after which it is gone). Overrides (tests,
 * benchmarks) replace single figures; the manager still never rewrites below `pressureAt`.
 */
export function compactionSettings(options: { model?: string; contextWindow?: number; maxOutputTokens?: number; promptCacheTtl?: PromptCacheTtl; overrides?: Partial<CompactionSettings> } = {}): CompactionSettings {
  const contextWindow = options.overrides?.contextWindow ?? options.contextWindow ?? contextWindowOf(options.model)
  const reservedOutput = Math.min(options.maxOutputTokens ?? 64_000, SUMMARY_MAX_TOKENS)
  const share = (fraction: number) => Math.floor(contextWindow * fraction)
  const pressureAt = share(0.5)
  // Claude Code's auto-compact point; on a small window (where it would come too soon) 80 %.
  const autoCompactAt = Math.max(share(0.8), contextWindow - reservedOutput - AUTO_COMPACT_BUFFER)
  // Collapse gets the first half of the room between the pressure mark and the summary, and
  // brings the request back down to the pressure mark: a bulk step (each advance is a cache write
  // of what follows it), then quiet for many turns. Measured in bench/context.bench.ts (300 turns,
  // half the results not re-fetchable): 45 collapses and 98 % exact cache reuse, against 66 and
  // 92 % when it stopped halfway down.
  const collapseAt = Math.floor((pressureAt + autoCompactAt) / 2)
  const derived: CompactionSettings = {
    contextWindow,
    reservedOutput,
    pressureAt,
    autoCompactAt,
    collapseAt,
    collapseTarget: pressureAt,
    // The last resort, past the summary's point (on 1M windows that point is past 95 %).
    hardCollapseAt: Math.max(share(0.95), Math.floor((autoCompactAt + contextWindow) / 2)),
    snipAbove: 400,
    snipTo: 200,
    microAt: pressureAt,
    // Down to a tenth: far below the high-water mark, so the next clearing is many turns away,
    // and little that stays sits after the first cleared result (each clearing pays a cache
    // write of everything after it: results kept there are written again).
    microTo: share(0.1),
    idleMs: options.promptCacheTtl === '1h' ? 60 * 60_000 : 5 * 60_000,
    // The newest result, which the model has not answered yet (and the whole newest round, see
    // micro.ts); the older ones it has seen and can fetch again. Measured on the forty-file task
    // (bench/long-context.bench.ts): keeping 1, 2 or 3 costs $2.41, $2.82, $3.37 (Claude Code $3.32).
    keepRecentResults: 1,
    // A 40 KB file and up (the forty-file task's 45 KB files are ~12.6k tokens); a twentieth of a small window.
    largeResultTokens: Math.min(10_000, share(0.05)),
    minClearChars: 400,
    microMinSavings: Math.min(20_000, share(0.1)),
    summaryMaxTokens: Math.min(SUMMARY_MAX_TOKENS, share(0.25)),
    maxFailures: 3,
    summaryStreamRetries: 2,
    restoreFiles: 5,
    restoreTokens: Math.min(50_000, share(0.25)),
    restoreTokensPerFile: Math.min(5_000, share(0.05)),
  }
  return { ...derived, ...options.overrides, contextWindow }
}

/**
 * The window compaction derives its thresholds from: the model's (or `SOUS_CONTEXT_WINDOW`'s),
 * or the `autoCompactWindow` setting when that is smaller (compact as if the window were that).
 */
export function compactionWindow(model: string | undefined, fromEnv: number | undefined, autoCompactWindow: number | undefined): number {
  const window = fromEnv ?? contextWindowOf(model)
  return autoCompactWindow !== undefined && autoCompactWindow < window ? autoCompactWindow : window
}

/** `SOUS_CONTEXT_WINDOW` as a number of tokens, when it is one (at least 1,000). */
export function contextWindowFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['SOUS_CONTEXT_WINDOW']?.trim()
  if (!raw || !/^\d+$/.test(raw)) return undefined
  const value = Number(raw)
  return value >= 1_000 ? value : undefined
}
