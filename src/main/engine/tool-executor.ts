import type { Usage } from '../../shared/protocol/agent-event'
import { fanOutController } from '../base/fan-out-signal'
import type { AssistantBlock, ToolResultBlock, ToolUseBlock } from '../services/model/types'
import type { CallOrigin } from '../tools/types'
import { isSafeCall, notExecuted, processToolCall, type CallOutcome, type RunToolDeps } from './tool-call'
import type { EventBody } from './types'

/** How long a tool may keep running after an abort before its result is synthesized. */
export const ABORT_GRACE_MS = 1_500

interface Entry {
  block: ToolUseBlock
  safe: boolean
  state: 'queued' | 'running' | 'settled'
  outcome?: CallOutcome
}

/**
 * Runs the tool calls of one model reply while the reply is still streaming.
 *
 * Contract: calls are added in the model's order once their block is known to be complete.
 * Consecutive concurrency-safe calls run together; any other call runs alone, after everything
 * before it settled. Every added call settles with exactly one tool_result, also on abort
 * (synthesized after {@link ABORT_GRACE_MS} if the tool ignores its signal). `discard` aborts the
 * attempt and drops its results (used when the reply stream broke and is re-issued).
 */
export class ToolExecutor {
  private readonly entries: Entry[] = []
  private readonly announced = new Map<string, string>()
  private readonly ended = new Set<string>()
  private readonly buffer: EventBody[] = []
  /** Every call of the reply listens to it (a reply may start dozens of agents): no leak warning. */
  private readonly controller = fanOutController()
  private wake: (() => void) | undefined
  private discarded = false
  /** False while the reply streams: a call with side effects waits for the whole reply. */
  private sealed = false
  /** The complete reply and the prompt tokens the API counted for its request (see {@link seal}); undefined once the attempt is voided. */
  private readonly reply: Promise<{ content: AssistantBlock[]; promptTokens: number } | undefined>
  private settleReply: (reply: { content: AssistantBlock[]; promptTokens: number } | undefined) => void = () => {}

  /**
   * `origin`: the request this reply answers, which calls may read (with the complete reply) as
   * `ToolContext.origin` — what a fork copies.
   */
  constructor(
    private readonly deps: Omit<RunToolDeps, 'emit'>,
    parentSignal: AbortSignal,
    private readonly origin?: Omit<CallOrigin, 'reply'>,
  ) {
    this.reply = new Promise((resolve) => (this.settleReply = resolve))
    const onAbort = () => this.abort('the user interrupted the turn')
    if (parentSignal.aborted) onAbort()
    else parentSignal.addEventListener('abort', onAbort, { once: true })
    this.release = () => parentSignal.removeEventListener('abort', onAbort)
  }

  /** Stops listening to the turn's signal (called once every call settled; idempotent). */
  readonly release: () => void

  /** A tool_use block started streaming (the UI shows a pending card). */
  announce(id: string, name: string): void {
    this.announced.set(id, name)
  }

  /** A complete tool_use block: schedule it. */
  add(block: ToolUseBlock): void {
    if (this.discarded) return
    const safe = isSafeCall(this.deps.tools.get(block.name), block.input)
    const tool = this.deps.tools.get(block.name)
    let summary: string | undefined
    try {
      summary = tool?.summarize(block.input)
    } catch {
      summary = undefined
    }
    this.push({ type: 'tool_state', toolUseId: block.id, name: block.name, state: 'pending', input: block.input, summary })
    this.entries.push({ block, safe, state: 'queued' })
    if (this.controller.signal.aborted) this.settle(this.entries.at(-1)!, notExecutedBlock(block, 'the turn was interrupted'))
    this.pump()
  }

  /**
   * The reply is complete (these are all its blocks, `usage` its request's figures): calls that are
   * not concurrency-safe may run now.
   */
  seal(content: AssistantBlock[], usage: Usage): void {
    this.sealed = true
    this.settleReply({ content, promptTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens })
    this.pump()
  }

  /** Whether a call with this id was added. */
  has(id: string): boolean {
    return this.entries.some((entry) => entry.block.id === id)
  }

  /** Events produced so far (tool states, progress, ends), oldest first. */
  takeEvents(): EventBody[] {
    return this.buffer.splice(0)
  }

  /** Yields events until every added call settled. */
  async *drain(): AsyncGenerator<EventBody> {
    for (;;) {
      yield* this.takeEvents()
      if (this.entries.every((entry) => entry.state === 'settled')) {
        // What a call pushed while the events above were being handled, and it settled meanwhile.
        yield* this.takeEvents()
        return this.release()
      }
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }

  /** tool_result blocks in the model's order (call after `drain`). */
  results(): ToolResultBlock[] {
    return this.entries.map((entry) => entry.outcome?.block ?? notExecutedBlock(entry.block, 'it was lost').block)
  }

  /** Why a hook ended the turn (`continue: false`) after one of these calls, if one did. */
  stopReason(): string | undefined {
    return this.entries.find((entry) => entry.outcome?.stop !== undefined)?.outcome?.stop
  }

  /** Whether one of these calls was the agent's final output (its result ends the turn). */
  endsTurn(): boolean {
    return this.entries.some((entry) => entry.outcome?.ends === true)
  }

  /** Permission denials among the settled calls. */
  denials(): NonNullable<CallOutcome['denial']>[] {
    return this.entries.flatMap((entry) => (entry.outcome?.denial ? [entry.outcome.denial] : []))
  }

  /**
   * Abandons this attempt: aborts running calls, waits for them (bounded), and closes every
   * announced call in the UI. Results are dropped.
   */
  async *discard(why: string): AsyncGenerator<EventBody> {
    this.discarded = true
    this.abort(why)
    yield* this.drain()
    // Close every card of this attempt, even one that finished: its result is dropped.
    for (const [id, name] of this.announced) {
      yield { type: 'tool_state', toolUseId: id, name, state: 'error' }
      yield { type: 'tool_end', toolUseId: id, name, isError: true, content: `Not executed: ${why}.` }
    }
  }

  /** Closes announced calls that never became complete blocks (e.g. cut off by max_tokens). */
  *closeUnadded(why: string): Generator<EventBody> {
    const added = new Set(this.entries.map((entry) => entry.block.id))
    for (const [id, name] of this.announced) {
      if (added.has(id) || this.ended.has(id)) continue
      this.ended.add(id)
      yield { type: 'tool_state', toolUseId: id, name, state: 'error' }
      yield { type: 'tool_end', toolUseId: id, name, isError: true, content: `Not executed: ${why}.` }
    }
  }

  private abort(why: string): void {
    this.settleReply(undefined)
    if (this.controller.signal.aborted) return
    this.controller.abort()
    for (const entry of this.entries) {
      if (entry.state === 'queued') this.settle(entry, notExecutedBlock(entry.block, why))
    }
    if (this.entries.some((entry) => entry.state === 'running')) {
      const timer = setTimeout(() => {
        for (const entry of this.entries) {
          if (entry.state === 'running') this.settle(entry, notExecutedBlock(entry.block, `${why} (it did not stop in time)`))
        }
      }, ABORT_GRACE_MS)
      timer.unref?.()
    }
  }

  private pump(): void {
    for (const entry of this.entries) {
      if (entry.state !== 'queued') continue
      const running = this.entries.filter((other) => other.state === 'running')
      // An unsafe call never starts before the reply is complete: a broken stream could not undo it.
      const canStart = entry.safe ? running.every((other) => other.safe) : this.sealed && running.length === 0
      if (!canStart) return
      this.start(entry)
      if (!entry.safe) return
    }
  }

  private start(entry: Entry): void {
    entry.state = 'running'
    const origin = this.origin
    const context = origin ? { ...this.deps.context, origin: () => this.reply.then((reply) => reply && { ...origin, reply: reply.content, ...(reply.promptTokens > 0 && { promptTokens: reply.promptTokens }) }) } : this.deps.context
    const deps: RunToolDeps = { ...this.deps, context, emit: (event) => this.push(event) }
    void processToolCall(entry.block, this.controller.signal, deps).then((outcome) => this.settle(entry, outcome, true))
  }

  private settle(entry: Entry, outcome: CallOutcome, eventsSent = false): void {
    if (entry.state === 'settled') return
    entry.state = 'settled'
    entry.outcome = outcome
    const { block } = entry
    if (!eventsSent) {
      this.push({ type: 'tool_state', toolUseId: block.id, name: block.name, state: 'error' })
      const text = typeof outcome.block.content === 'string' ? outcome.block.content : 'Not executed.'
      // Settled here only by an abort (queued, or running past the grace): the turn was interrupted.
      this.push({ type: 'tool_end', toolUseId: block.id, name: block.name, isError: true, content: text, ...(this.controller.signal.aborted && { interrupted: true as const }) })
    }
    this.ended.add(block.id)
    this.pump()
    this.notify()
  }

  private push(event: EventBody): void {
    if (this.discarded) return
    // A call settled by force (abort grace) may still report late; its card is already closed.
    if ('toolUseId' in event && this.ended.has(event.toolUseId)) return
    this.buffer.push(event)
    this.notify()
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }
}

function notExecutedBlock(block: ToolUseBlock, why: string): CallOutcome {
  const result = notExecuted(why)
  return { block: { type: 'tool_result', tool_use_id: block.id, content: result.content, is_error: true } }
}
