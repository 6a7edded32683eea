// Longer than 300 lines because when each layer runs, and what it does to the count, the records
// and the circuit breaker, is one decision per request and reads best in one place; the layers
// themselves are their own modules.
import type { Usage } from '../../shared/protocol/agent-event'
import type { CompactionLayer, CompactionRecord, CompactionTrigger } from '../../shared/protocol/compaction'
import type { Message, TextBlock, ToolSchema } from '../services/model/types'
import { CollapseProjection } from './collapse'
import { countNames, mergeConsecutiveUsers } from './conversation'
import { microCompact } from './micro'
import { projectStreak } from './streak'
import { compactionRecord, roundMs, type CompactionFigures } from './record'
import type { RestorationProvider } from './restoration'
import type { CompactionSettings } from './settings'
import { snip } from './snip'
import { summarizeConversation } from './summarize'
import { fixedTokens, messagesTokens, messageTokens, TokenLedger } from './tokens'
import type { CompactionHooks, CompactionNews, Prepared, RequestShape } from './types'

/** What a session gives its context manager. */
export interface ContextManagerOptions {
  /** The thresholds; a function when they follow something that changes (the session's model, `/model`). Read before every request. */
  settings: CompactionSettings | (() => CompactionSettings)
  /** What comes back after a summary (recent files, plan, skills, tasks); missing parts contribute nothing. */
  restoration?: readonly RestorationProvider[]
  hooks?: CompactionHooks
  /** Named in the summary, so the model knows where the full history is. */
  transcriptPath?: string
  /**
   * Called (synchronously) with every conversation that replaces the session's: persist it here
   * (a boundary marker in the transcript; the earlier lines stay).
   */
  onReplace?(messages: Message[], record: CompactionRecord): void
  /** Compactions of this session so far (read back from its transcript). */
  history?: readonly CompactionRecord[]
  now?: () => number
}

/** A compaction someone asked for (`/compact` during a turn, the model's Compact tool), run before the next request. */
interface Requested {
  trigger: CompactionTrigger
  instructions?: string
}

/**
 * The context of one session: its token count and every compaction layer, cheapest first,
 * before every request (see {@link prepare}). Nothing earlier is dropped or rewritten below
 * `pressureAt` (half the window), and above it only when a layer crosses its threshold, so between compactions the request prefix stays byte-identical and the
 * prompt cache keeps paying off:
 *
 * 1. the result budget (per message, in the tool layer, when results arrive);
 * 2. snip — past `snipAbove` messages and `pressureAt` tokens, the middle goes (head and tail stay);
 * 3. micro-compact — from `microAt` tokens, in bulk down to `microTo`, when it saves at least
 *    `microMinSavings` (or after `idleMs` without a request: the cache has expired anyway), old
 *    results of re-fetchable tools become placeholders;
 * 4. collapse — from `collapseAt`, a projection of what is sent (the session keeps everything);
 * 5. auto-compact — from `autoCompactAt` (judged on what collapse would send), a summary replaces
 *    the conversation, then restoration; after `maxFailures` failures in a row it stops for the
 *    session (collapse, now also leaving out whole rounds past `hardCollapseAt`, still guards);
 * 6. reactive — when the API still says the prompt is too long ({@link overflow});
 * 7. manual — `/compact [instructions]` ({@link compactNow}) or the model's request ({@link request}).
 */
export class ContextManager {
  readonly ledger = new TokenLedger()
  private readonly collapse: CollapseProjection
  private readonly records: CompactionRecord[]
  private failures = 0
  private breakerAnnounced = false
  private requested: Requested | undefined
  private lastRequestAt: number | undefined
  private fixed = 0
  private projected = false
  /** The streak projection's word on the request being prepared: keep its newest round out of the cache. */
  private deferNewest = false
  /** Whether the session has been under token pressure (see {@link underPressure}). */
  private pressured = false
  private readonly now: () => number

  constructor(private readonly options: ContextManagerOptions) {
    this.records = [...(options.history ?? [])]
    this.collapse = new CollapseProjection(options.transcriptPath)
    this.now = options.now ?? Date.now
  }

  get settings(): CompactionSettings {
    const { settings } = this.options
    return typeof settings === 'function' ? settings() : settings
  }

  /** Compactions of this session, oldest first. */
  get history(): readonly CompactionRecord[] {
    return this.records
  }

  /** Whether auto-compaction stopped after failing `maxFailures` times in a row. */
  get breakerOpen(): boolean {
    return this.failures >= this.settings.maxFailures
  }

  /** Asks for a summarizing compaction before the next request (the model's Compact tool, `/compact` during a turn). */
  request(trigger: CompactionTrigger, instructions?: string): void {
    this.requested = { trigger, ...(instructions?.trim() && { instructions: instructions.trim() }) }
  }

  /** Tokens a request with these messages would take, with the system prompt and tools of the last request. */
  count(messages: readonly Message[]): number {
    return this.ledger.count(messages, this.fixed)
  }

  /**
   * Runs the layers that are due, then says what to send. `messages` is the session's
   * conversation; the returned `messages` is the same array unless a layer replaced it (already
   * passed to `onReplace`). Events describe each compaction and, last, the request's size.
   */
  async *prepare(messages: Message[], request: RequestShape): AsyncGenerator<CompactionNews, Prepared> {
    this.fixed = fixedTokens(request.system, request.tools)
    const settings = this.settings
    let working = messages
    // Below the pressure mark nothing earlier is dropped or rewritten, whatever the message count.
    if (working.length > settings.snipAbove && this.count(working) >= settings.pressureAt) {
      const snipped = this.timed(() => snip(working, settings.snipAbove, settings.snipTo, this.options.transcriptPath))
      if (snipped.value) working = yield* this.replace('snip', 'auto', working, snipped.value.messages, snipped.ms, `removed ${snipped.value.removed} messages from the middle`)
    }
    working = yield* this.microCompact(working)
    // Collapse (stubs only) gets its chance before a summary is written; the summary judges the
    // request as collapse would send it.
    let send = this.streak(yield* this.guard(working, !this.breakerOpen))
    const requested = this.requested
    this.requested = undefined
    const stubsOnly = !this.breakerOpen
    let summarized = false
    if (requested) {
      summarized = true
      working = yield* this.summarize('manual', requested.trigger, working, request, requested.instructions)
    } else if (this.sentTokens(working, send) >= settings.autoCompactAt && !this.breakerOpen) {
      summarized = true
      working = yield* this.summarize('auto', 'auto', working, request)
    }
    // A summary replaced the conversation (collapse starts over on it), or none could be had
    // (the last resort may leave whole rounds out).
    if (summarized) send = this.streak(stubsOnly ? yield* this.guard(working, false) : send)
    this.lastRequestAt = this.now()
    yield { type: 'context_status', tokens: this.sentTokens(working, this.projected ? send : working), window: settings.contextWindow, autoCompactAt: settings.autoCompactAt }
    return { messages: working, send, ...(this.deferNewest && { deferNewest: true }) }
  }

  /**
   * The streak projection (streak.ts) on what is about to be sent: in a run of rounds that each
   * bring a large re-read-able result, only the newest is sent whole. Remembers whether the
   * request should leave its newest round out of the cache.
   */
  private streak(send: Message[]): Message[] {
    // Only under token pressure (issue 23, point 1): a session that never reached the pressure
    // mark sends every result as it came; one that did (a clearing or summary already ran, or it
    // is there now) sheds superseded large reads instead of re-reading them until the next bulk clearing.
    this.deferNewest = false
    if (!this.underPressure(send)) return send
    const projection = projectStreak(send, { largeTokens: this.settings.largeResultTokens })
    this.deferNewest = projection.deferNewest
    if (projection.stubbed === 0) return send
    this.projected = true
    return projection.send
  }

  /**
   * Whether the session is under token pressure: the request is at the pressure mark, or an
   * earlier layer already had to make room (snip, micro-compaction or a summary that was done).
   * Once there, a long session stays there: its history keeps growing past what it sends.
   */
  private underPressure(send: readonly Message[]): boolean {
    if (this.pressured) return true
    const madeRoom = this.records.some((record) => record.status === 'done' && record.layer !== 'collapse')
    this.pressured = madeRoom || this.count(send) >= this.settings.pressureAt
    return this.pressured
  }

  /**
   * Micro-compaction in bulk: from the high-water mark (`microAt`, never below `pressureAt`) the
   * oldest re-fetchable results are cleared until the conversation is down to the low-water mark
   * (`microTo`), and only when that saves at least `microMinSavings` — so a clearing, and the
   * cache write of the tail it costs, comes once in many turns. After an idle spell (the cache
   * has expired) any saving counts, still only past the pressure mark.
   */
  private *microCompact(working: Message[]): Generator<CompactionNews, Message[]> {
    const settings = this.settings
    const tokens = this.count(working)
    const idle = this.lastRequestAt !== undefined && this.now() - this.lastRequestAt >= settings.idleMs
    if (tokens < settings.pressureAt || (tokens < settings.microAt && !idle)) return working
    const micro = this.timed(() => microCompact(working, { keepRecent: settings.keepRecentResults, minChars: settings.minClearChars, saveAtLeast: Math.max(settings.microMinSavings, tokens - settings.microTo) }))
    const saved = micro.value?.cleared.reduce((sum, entry) => sum + entry.tokens, 0) ?? 0
    if (!micro.value || (!idle && saved < settings.microMinSavings)) return working
    const why = idle ? 'the session was idle and its prompt cache had expired' : 'the conversation reached the micro-compaction threshold'
    const detail = `cleared ${micro.value.cleared.length} old results (${countNames(micro.value.cleared.map((entry) => entry.tool))}; about ${saved.toLocaleString('en-US')} tokens): ${why}`
    return yield* this.replace('micro', 'auto', working, micro.value.messages, micro.ms, detail)
  }

  /**
   * The API refused the request as too long (our count was off): a summary that keeps less, or —
   * when no summary can be had — a collapse aimed well under the window. `undefined` when
   * neither makes the conversation smaller; the caller ends the turn and the transcript stays whole.
   */
  async *overflow(messages: Message[], request: RequestShape): AsyncGenerator<CompactionNews, Prepared | undefined> {
    this.fixed = fixedTokens(request.system, request.tools)
    const before = this.count(messages)
    if (!this.breakerOpen) {
      const working = yield* this.summarize('reactive', 'auto', messages, request)
      if (working !== messages) {
        this.projected = false
        return { messages: working, send: mergeConsecutiveUsers(working) }
      }
      if (request.signal.aborted) return undefined
    }
    // No summary: send a hard collapse of what we have. Our count was wrong (the API refused what
    // we thought fitted), so aim at half of it as well as at 60 % of the window.
    const started = performance.now()
    const fallback = new CollapseProjection(this.options.transcriptPath)
    const { send } = fallback.project(messages, Math.max(before, this.settings.hardCollapseAt), (candidate) => this.sentTokens(messages, candidate), {
      collapseAt: 0,
      hardCollapseAt: 0,
      target: Math.floor(Math.min(this.settings.contextWindow * 0.6, before * 0.5)),
    })
    const after = this.sentTokens(messages, send)
    if (send === messages || after >= before) return undefined
    this.projected = true
    yield this.record('collapse', 'auto', 'done', { before, after, messagesBefore: messages.length, messagesAfter: send.length, harnessMs: performance.now() - started, detail: 'the request was still too long; older rounds were left out of it (the transcript keeps them)' })
    return { messages, send: mergeConsecutiveUsers(send) }
  }

  /** `/compact [instructions]` between turns: a summary now, whatever the size. */
  async *compactNow(messages: Message[], request: RequestShape, instructions?: string): AsyncGenerator<CompactionNews, Message[]> {
    this.fixed = fixedTokens(request.system, request.tools)
    return yield* this.summarize('manual', 'manual', messages, request, instructions)
  }

  /**
   * The conversation starts from a request the API already counted (a fork repeats its parent's
   * last request): anchor the count on that figure, so this agent judges its thresholds as the
   * parent would have, not from a raw estimate that could compact a prefix the cache holds.
   */
  adopt(counted: { promptTokens: number; messages: readonly Message[]; system: readonly TextBlock[]; tools: readonly ToolSchema[] }): void {
    this.fixed = fixedTokens(counted.system, counted.tools)
    this.observe({ inputTokens: counted.promptTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, counted.messages.length, counted.messages)
  }

  /** The reply to the request just sent arrived: its usage anchors the count. */
  observe(usage: Usage, sentLength: number, sent: readonly Message[]): void {
    this.lastRequestAt = this.now()
    const estimated = this.fixed + sent.reduce((sum, message) => sum + messageTokens(message), 0)
    if (this.projected) this.ledger.observeProjected(usage, estimated)
    else this.ledger.observe(usage, sentLength, estimated)
  }

  /**
   * The read-time guard: the collapse projection of what is sent (the working list itself when
   * none is needed). `stubsOnly` before a summary: whole rounds are not left out yet, and stubs
   * that would not bring the request under the summary's point are not made at all (the summary
   * replaces everything anyway, and each stub costs a cache write).
   */
  private *guard(working: Message[], stubsOnly: boolean): Generator<CompactionNews, Message[]> {
    const settings = this.settings
    const tokens = this.count(working)
    if (tokens < settings.collapseAt && !this.collapse.active) {
      this.projected = false
      return mergeConsecutiveUsers(working)
    }
    const started = performance.now()
    const mark = this.collapse.mark()
    const projection = this.collapse.project(working, tokens, (candidate) => this.sentTokens(working, candidate), {
      collapseAt: settings.collapseAt,
      hardCollapseAt: stubsOnly ? Infinity : settings.hardCollapseAt,
      target: settings.collapseTarget,
    })
    const after = this.sentTokens(working, projection.send)
    if (stubsOnly && projection.advanced && after >= settings.autoCompactAt && !this.breakerOpen) {
      this.collapse.rewind(mark)
      const send = this.collapse.project(working, tokens, (candidate) => this.sentTokens(working, candidate), { collapseAt: Infinity, hardCollapseAt: Infinity, target: 0 }).send
      this.projected = send !== working
      return mergeConsecutiveUsers(send)
    }
    this.projected = projection.send !== working
    if (projection.advanced) {
      yield this.record('collapse', 'auto', 'done', { before: tokens, after, messagesBefore: working.length, messagesAfter: projection.send.length, harnessMs: performance.now() - started, detail: projection.detail })
    }
    return mergeConsecutiveUsers(projection.send)
  }

  /**
   * Tokens of `send`, a projection of `working`: the count of the working list (anchored on the
   * API's figure) less what the projection took out. Counting the projection on its own would
   * reuse the anchor of a list of the same length and miss what the stubs saved.
   */
  private sentTokens(working: readonly Message[], send: readonly Message[]): number {
    const tokens = this.count(working)
    if (send === working) return tokens
    return Math.max(0, tokens - this.ledger.calibrated(messagesTokens(working) - messagesTokens(send)))
  }

  /** A summarizing layer (auto, reactive, manual); returns the conversation to go on with. */
  private async *summarize(layer: CompactionLayer, trigger: CompactionTrigger, messages: Message[], request: RequestShape, instructions?: string): AsyncGenerator<CompactionNews, Message[]> {
    const settings = this.settings
    const started = performance.now()
    const before = this.count(messages)
    yield { type: 'compaction_start', layer, trigger, tokensBefore: before }
    // What the summary request sends: the conversation as it would be sent (a projection when it is too big).
    const source = this.summarySource(messages, layer)
    const result = await summarizeConversation(
      messages,
      {
        trigger,
        ...(instructions && { instructions }),
        source,
        tailTokens: Math.floor(settings.contextWindow * (layer === 'reactive' ? 0.05 : 0.1)),
        maxTokens: settings.summaryMaxTokens,
        streamRetries: settings.summaryStreamRetries,
        shrinkRetries: 2,
        restoreLimits: { files: settings.restoreFiles, tokens: settings.restoreTokens, tokensPerFile: settings.restoreTokensPerFile },
      },
      { request, restoration: this.options.restoration ?? [], ...(this.options.hooks && { hooks: this.options.hooks }), ...(this.options.transcriptPath && { transcriptPath: this.options.transcriptPath }) },
    )
    const harnessMs = () => Math.max(0, performance.now() - started - result.waitedMs)
    if (result.status === 'done') {
      const after = this.ledger.calibrated(this.fixed + result.messages.reduce((sum, message) => sum + messageTokens(message), 0))
      if (after < before || layer === 'manual') {
        if (layer !== 'reactive') this.failures = 0
        if (layer === 'manual') this.breakerAnnounced = false
        return yield* this.replace(layer, trigger, messages, result.messages, harnessMs(), result.detail, result.summaryMs)
      }
      yield* this.failed(layer, trigger, before, messages.length, harnessMs(), 'the summary was not smaller than the conversation', result.summaryMs)
      return messages
    }
    if (result.status === 'blocked') {
      yield this.record(layer, trigger, 'blocked', { before, after: before, messagesBefore: messages.length, messagesAfter: messages.length, harnessMs: harnessMs(), detail: result.detail })
      return messages
    }
    if (result.aborted) return messages
    yield* this.failed(layer, trigger, before, messages.length, harnessMs(), result.detail, result.summaryMs)
    return messages
  }

  private *failed(layer: CompactionLayer, trigger: CompactionTrigger, before: number, count: number, harnessMs: number, detail: string, summaryMs: number): Generator<CompactionNews> {
    yield this.record(layer, trigger, 'failed', { before, after: before, messagesBefore: count, messagesAfter: count, harnessMs, detail, summaryMs })
    if (layer !== 'auto') return
    this.failures++
    if (this.breakerOpen && !this.breakerAnnounced) {
      this.breakerAnnounced = true
      yield {
        type: 'notice',
        level: 'warning',
        message: `Automatic compaction failed ${this.failures} times in a row, so it is off for this session. Older parts of the conversation will be collapsed to fit; run /compact to try a summary again.`,
      }
    }
  }

  /** The summary request's messages: the conversation, or its collapse when it is over the window's share the summary leaves. */
  private summarySource(messages: Message[], layer: CompactionLayer): Message[] {
    const settings = this.settings
    const room = settings.contextWindow - settings.summaryMaxTokens - Math.floor(settings.contextWindow * 0.05)
    const tokens = this.count(messages)
    if (tokens <= room && layer !== 'reactive') return mergeConsecutiveUsers(messages)
    const projection = new CollapseProjection(this.options.transcriptPath).project(messages, Math.max(tokens, settings.hardCollapseAt), (candidate) => this.sentTokens(messages, candidate), {
      collapseAt: 0,
      hardCollapseAt: layer === 'reactive' ? 0 : Infinity,
      target: Math.min(room, layer === 'reactive' ? Math.floor(settings.contextWindow * 0.6) : room),
    })
    return mergeConsecutiveUsers(projection.send)
  }

  /** Adopts a new conversation: counts, persists, reports. */
  private *replace(layer: CompactionLayer, trigger: CompactionTrigger, before: Message[], after: Message[], harnessMs: number, detail: string, summaryMs?: number): Generator<CompactionNews, Message[]> {
    const started = performance.now()
    const tokensBefore = this.count(before)
    this.ledger.invalidate()
    this.collapse.reset()
    const tokensAfter = this.count(after)
    const record = compactionRecord(layer, trigger, 'done', this.now(), { before: tokensBefore, after: tokensAfter, messagesBefore: before.length, messagesAfter: after.length, harnessMs: 0, detail, ...(summaryMs !== undefined && { summaryMs }) })
    this.options.onReplace?.(after, record)
    record.harnessMs = roundMs(harnessMs + performance.now() - started)
    this.records.push(record)
    yield { type: 'compaction', ...record }
    return after
  }

  private record(layer: CompactionLayer, trigger: CompactionTrigger, status: CompactionRecord['status'], figures: CompactionFigures): CompactionNews {
    const record = compactionRecord(layer, trigger, status, this.now(), figures)
    this.records.push(record)
    return { type: 'compaction', ...record }
  }

  private timed<T>(work: () => T): { value: T; ms: number } {
    const started = performance.now()
    const value = work()
    return { value, ms: performance.now() - started }
  }
}
