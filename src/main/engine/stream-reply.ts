import type { Usage } from '../../shared/protocol/agent-event'
import type { AssistantBlock, ModelErrorReason, ModelRequest, ModelService, ToolUseBlock } from '../services/model/types'
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
): AsyncGenerator<EventBody, ReplyOutcome> {
  let executor = new ToolExecutor(toolDeps, request.signal)
  let unconfirmed: ToolUseBlock[] = []
  let dirty = false
  const confirm = () => {
    for (const block of unconfirmed) executor.add(block)
    unconfirmed = []
  }
  async function* reset(why: string): AsyncGenerator<EventBody> {
    if (!dirty) return
    yield* executor.discard(why)
    executor = new ToolExecutor(toolDeps, request.signal)
    unconfirmed = []
    dirty = false
  }

  for await (const event of model.stream(request)) {
    switch (event.type) {
      case 'request_start':
        yield* reset('the model request was re-issued')
        yield { type: 'request_start', model: event.model, attempt: event.attempt }
        break
      case 'retry':
        yield* reset('the model request was re-issued')
        yield { type: 'model_retry', attempt: event.attempt, reason: event.reason, delayMs: event.delayMs }
        break
      case 'fallback':
        yield* reset(`the request switched to the fallback model ${event.to}`)
        yield { type: 'model_fallback', from: event.from, to: event.to, reason: event.reason }
        break
      case 'block_start':
        dirty = true
        confirm()
        if (event.kind === 'tool_use' && event.id !== undefined) {
          executor.announce(event.id, event.name ?? '')
          yield { type: 'tool_use_start', toolUseId: event.id, name: event.name ?? '' }
        }
        break
      case 'text_delta':
        dirty = true
        yield { type: 'text_delta', text: event.text }
        break
      case 'thinking_delta':
        dirty = true
        yield { type: 'thinking_delta', text: event.text }
        break
      case 'block_stop':
        if (event.block.type === 'tool_use') unconfirmed.push(event.block)
        break
      case 'message_end':
        // A reply cut by max_tokens may end in a half-written tool_use: never run it.
        if (event.stopReason !== 'max_tokens') {
          // The final content is the truth; add calls in its order that are not running yet.
          unconfirmed = []
          for (const block of event.content) {
            if (block.type === 'tool_use' && !executor.has(block.id)) executor.add(block)
          }
          executor.seal()
        }
        yield* executor.takeEvents()
        return {
          kind: 'message',
          model: event.model,
          content: event.content,
          stopReason: event.stopReason,
          usage: event.usage,
          costUsd: event.costUsd,
          executor,
        }
      case 'error':
        dirty = true
        yield* reset(`the model reply failed (${event.reason})`)
        return { kind: 'error', reason: event.reason, message: event.message, midStream: event.midStream, status: event.status }
    }
    yield* executor.takeEvents()
  }
  yield* reset('the model reply ended without a final message')
  return { kind: 'error', reason: 'unknown', message: 'The model stream ended without a final message.', midStream: true }
}
