import type { Usage } from '../../shared/protocol/agent-event'
import type { AssistantBlock, ModelErrorReason, ModelRequest, ModelService, ModelStreamEvent, ToolUseBlock } from '../services/model/types'
import type { CallOrigin } from '../tools/types'
import { ToolExecutor } from './tool-executor'
import type { RunToolDeps } from './tool-call'
import type { EventBody } from './types'

/** How one request ended. */
export type ReplyOutcome =
  | {
      kind: 'message'
      model: string
      content: AssistantBlock[]
      stopReason: string | null
      usage: Usage
      costUsd: number
      /** Holds the reply's tool calls (already started where safe). */
      executor: ToolExecutor
      /** Set when the model service switched to its fallback model during this request. */
      fallbackModel?: string
    }
  | { kind: 'error'; reason: ModelErrorReason; message: string; midStream: boolean; status?: number }

/**
 * Streams one model reply, forwarding deltas and starting tool calls as soon as their block is
 * known to be complete (the next block started, or the message ended without `max_tokens`).
 *
 * Contract: on `error`, `retry` or `fallback` the partial reply is void: tools it started are
 * aborted and their results dropped before the outcome is returned.
 */
export async function* streamReply(
  model: ModelService,
  request: ModelRequest,
  toolDeps: Omit<RunToolDeps, 'emit'>,
  origin?: Omit<CallOrigin, 'reply'>,
): AsyncGenerator<EventBody, ReplyOutcome> {
  const reply = new ReplyInProgress(toolDeps, request.signal, origin)
  for await (const event of model.stream(request)) {
    const outcome = yield* reply.take(event)
    if (outcome) return outcome
    yield* reply.executor.takeEvents()
  }
  yield* reply.restart('the model reply ended without a final message')
  return { kind: 'error', reason: 'unknown', message: 'The model stream ended without a final message.', midStream: true }
}

/** One reply as it streams: the calls it started, the ones not yet known complete, whether anything arrived. */
class ReplyInProgress {
  executor: ToolExecutor
  /** Tool calls whose block ended but that may still be cut (no next block or final message yet). */
  private unconfirmed: ToolUseBlock[] = []
  /** Something of this attempt arrived, so a restart must void it. */
  private started = false
  private fallbackModel: string | undefined

  constructor(
    private readonly toolDeps: Omit<RunToolDeps, 'emit'>,
    private readonly signal: AbortSignal,
    private readonly origin?: Omit<CallOrigin, 'reply'>,
  ) {
    this.executor = new ToolExecutor(toolDeps, signal, origin)
  }

  /** Handles one event of the model service; returns the outcome once the reply is over. */
  async *take(event: ModelStreamEvent): AsyncGenerator<EventBody, ReplyOutcome | undefined> {
    switch (event.type) {
      case 'request_start':
        yield* this.restart('the model request was re-issued')
        yield { type: 'request_start', model: event.model, attempt: event.attempt }
        return undefined
      case 'retry':
        yield* this.restart('the model request was re-issued')
        yield { type: 'model_retry', attempt: event.attempt, reason: event.reason, delayMs: event.delayMs }
        return undefined
      case 'fallback':
        yield* this.restart(`the request switched to the fallback model ${event.to}`)
        this.fallbackModel = event.to
        yield { type: 'model_fallback', from: event.from, to: event.to, reason: event.reason }
        return undefined
      case 'block_start':
        this.started = true
        this.confirm()
        if (event.kind === 'tool_use' && event.id !== undefined) {
          this.executor.announce(event.id, event.name ?? '')
          yield { type: 'tool_use_start', toolUseId: event.id, name: event.name ?? '' }
        }
        return undefined
      case 'text_delta':
      case 'thinking_delta':
        this.started = true
        yield { type: event.type, text: event.text }
        return undefined
      case 'block_stop':
        if (event.block.type === 'tool_use') this.unconfirmed.push(event.block)
        return undefined
      case 'message_end':
        return yield* this.finish(event)
      case 'error':
        this.started = true
        yield* this.restart(`the model reply failed (${event.reason})`)
        return { kind: 'error', reason: event.reason, message: event.message, midStream: event.midStream, status: event.status }
    }
  }

  /** Voids what this attempt started (tools aborted, their results dropped) so the next one starts clean. */
  async *restart(why: string): AsyncGenerator<EventBody> {
    if (!this.started) return
    yield* this.executor.discard(why)
    this.executor = new ToolExecutor(this.toolDeps, this.signal, this.origin)
    this.unconfirmed = []
    this.started = false
  }

  /** A new block started: the tool calls before it are complete, so they may run. */
  private confirm(): void {
    for (const block of this.unconfirmed) this.executor.add(block)
    this.unconfirmed = []
  }

  private async *finish(event: Extract<ModelStreamEvent, { type: 'message_end' }>): AsyncGenerator<EventBody, ReplyOutcome> {
    // A reply cut by max_tokens may end in a half-written tool_use: never run it.
    if (event.stopReason !== 'max_tokens') {
      // The final content is the truth; add calls in its order that are not running yet.
      this.unconfirmed = []
      for (const block of event.content) {
        if (block.type === 'tool_use' && !this.executor.has(block.id)) this.executor.add(block)
      }
      this.executor.seal(event.content, event.usage)
    }
    yield* this.executor.takeEvents()
    return {
      kind: 'message',
      model: event.model,
      content: event.content,
      stopReason: event.stopReason,
      usage: event.usage,
      costUsd: event.costUsd,
      executor: this.executor,
      ...(this.fallbackModel ? { fallbackModel: this.fallbackModel } : {}),
    }
  }
}
