import { estimateTokens } from './cache-sim'
import type { ErrorSpec, ReplyBlock, ReplySpec, SimulatedUsage } from './types'

/**
 * Pure builders of Messages API wire objects: the final Message, the SSE event sequence of a
 * streamed reply, and error bodies. No I/O here; server.ts writes what these return.
 */

/** One SSE event; `delta` marks content_block_delta events (they are what delays and drops count). */
export interface SseFrame {
  event: string
  data: Record<string, unknown>
  delta: boolean
}

export interface WireContext {
  messageId: string
  requestIndex: number
  model: string
  simulated: SimulatedUsage
}

export interface ChunkOptions {
  chunkSize: number
  jsonChunks: number
}

/** The complete content blocks of a reply, with tool_use ids filled in. */
export function finalContent(reply: ReplySpec, ctx: WireContext): Array<Record<string, unknown>> {
  return reply.content.map((block, i) => {
    if (block.type === 'tool_use') {
      return { type: 'tool_use', id: block.id ?? `toolu_scripted_${ctx.requestIndex}_${i}`, name: block.name, input: block.input }
    }
    if (block.type === 'text') return { type: 'text', text: block.text, citations: null }
    return { ...block }
  })
}

/** Stop reason: explicit, else tool_use when a tool is called, else end_turn. */
export function stopReasonOf(reply: ReplySpec): string {
  if (reply.stopReason) return reply.stopReason
  return reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
}

/** Input-side usage: simulated, overridden field by field by the step. */
export function inputUsage(reply: ReplySpec, ctx: WireContext): SimulatedUsage {
  return {
    input_tokens: reply.usage?.input_tokens ?? ctx.simulated.input_tokens,
    cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? ctx.simulated.cache_creation_input_tokens,
    cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? ctx.simulated.cache_read_input_tokens,
  }
}

/** Output tokens: explicit, else a quarter of the generated characters (at least 1). */
export function outputTokens(reply: ReplySpec): number {
  if (reply.usage?.output_tokens != null) return reply.usage.output_tokens
  const chars = reply.content.reduce((sum, block) => sum + generatedText(block).length, 0)
  return Math.max(1, estimateTokens('x'.repeat(chars)))
}

function generatedText(block: ReplyBlock): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'thinking':
      return block.thinking
    case 'tool_use':
      return JSON.stringify(block.input ?? {})
    case 'redacted_thinking':
      return block.data
    case 'server_tool_use':
      return JSON.stringify(block.input ?? {})
    case 'web_search_tool_result':
      return ''
  }
}

function usageObject(input: SimulatedUsage, output: number): Record<string, unknown> {
  return {
    ...input,
    cache_creation: { ephemeral_5m_input_tokens: input.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: 'standard',
  }
}

/** The non-streaming response body. */
export function messageJson(reply: ReplySpec, ctx: WireContext): Record<string, unknown> {
  return {
    id: reply.id ?? ctx.messageId,
    type: 'message',
    role: 'assistant',
    model: reply.model ?? ctx.model,
    content: finalContent(reply, ctx),
    stop_reason: stopReasonOf(reply),
    stop_sequence: reply.stopSequence ?? null,
    usage: usageObject(inputUsage(reply, ctx), outputTokens(reply)),
  }
}

/** The full SSE event sequence of a streamed reply, in the API's order. */
export function sseFrames(reply: ReplySpec, ctx: WireContext, chunking: ChunkOptions): SseFrame[] {
  const input = inputUsage(reply, ctx)
  const frames: SseFrame[] = []
  const push = (event: string, data: Record<string, unknown>, delta = false): void => {
    frames.push({ event, data: { type: event, ...data }, delta })
  }
  push('message_start', {
    message: {
      id: reply.id ?? ctx.messageId,
      type: 'message',
      role: 'assistant',
      model: reply.model ?? ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageObject(input, 1),
    },
  })
  push('ping', {})
  finalContent(reply, ctx).forEach((block, index) => {
    const start = blockStart(block)
    push('content_block_start', { index, content_block: start })
    for (const delta of blockDeltas(block, chunking)) push('content_block_delta', { index, delta }, true)
    push('content_block_stop', { index })
  })
  push('message_delta', {
    delta: { stop_reason: stopReasonOf(reply), stop_sequence: reply.stopSequence ?? null },
    usage: { ...input, output_tokens: outputTokens(reply) },
  })
  push('message_stop', {})
  return frames
}

function blockStart(block: Record<string, unknown>): Record<string, unknown> {
  switch (block['type']) {
    case 'text':
      return { type: 'text', text: '', citations: null }
    case 'tool_use':
    case 'server_tool_use':
      return { type: block['type'], id: block['id'], name: block['name'], input: {} }
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' }
    default:
      return block
  }
}

function blockDeltas(block: Record<string, unknown>, chunking: ChunkOptions): Array<Record<string, unknown>> {
  switch (block['type']) {
    case 'text':
      return chunkText(String(block['text']), chunking.chunkSize).map((text) => ({ type: 'text_delta', text }))
    case 'tool_use':
    case 'server_tool_use': {
      const json = JSON.stringify(block['input'] ?? {})
      const size = Math.max(1, Math.ceil(json.length / Math.max(1, chunking.jsonChunks)))
      return chunkText(json, size).map((partial_json) => ({ type: 'input_json_delta', partial_json }))
    }
    case 'thinking':
      return [
        ...chunkText(String(block['thinking']), chunking.chunkSize).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: String(block['signature']) },
      ]
    default:
      return []
  }
}

/** Splits text into pieces of at most `size` characters (code points kept whole). */
export function chunkText(text: string, size: number): string[] {
  const chars = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + Math.max(1, size)).join(''))
  return out
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
}

const DEFAULT_MESSAGES: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
}

/** Error body as the API sends it. */
export function errorBody(spec: Pick<ErrorSpec, 'status' | 'type' | 'message' | 'errorCode'>, requestId: string): Record<string, unknown> {
  const type = spec.type ?? ERROR_TYPES[spec.status] ?? (spec.status >= 500 ? 'api_error' : 'invalid_request_error')
  const error: Record<string, unknown> = { type, message: spec.message ?? DEFAULT_MESSAGES[type] ?? type }
  if (spec.errorCode) error['details'] = { error_code: spec.errorCode }
  return { type: 'error', error, request_id: requestId }
}
