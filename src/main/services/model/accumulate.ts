import type Anthropic from '@anthropic-ai/sdk'
import type { Usage } from '../../../shared/protocol/agent-event'
import { costOf } from './pricing'
import type { AssistantBlock, ModelStreamEvent } from './types'

type Pending =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'tool_use'; id: string; name: string; json: string }
  | { kind: 'server_tool_use'; id: string; name: string; json: string }
  | { kind: 'whole'; block: AssistantBlock }

/**
 * Turns the raw SSE events of one reply into our {@link ModelStreamEvent}s and keeps the finished
 * blocks and usage. Tool inputs are parsed once, at content_block_stop, from the accumulated
 * partial_json; thinking signatures are kept byte for byte. The web search server tool's call and
 * result are kept whole, to be echoed back; block kinds we do not model are skipped, so `index`
 * may have gaps but always matches the API's.
 */
export class StreamAccumulator {
  private readonly pending = new Map<number, Pending>()
  private readonly done = new Map<number, AssistantBlock>()
  private readonly badToolJson: string[] = []
  private responseModel: string | undefined
  private stopReason: string | null = null
  private usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
  private oneHourWrites = 0
  private stopped = false
  /** True once anything the caller can see (a block) has been emitted. */
  contentStarted = false

  constructor(private readonly requestModel: string) {}

  /** Feeds one raw event; returns what to emit for it (often nothing). */
  push(event: Anthropic.RawMessageStreamEvent): ModelStreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        this.responseModel = event.message.model
        const u = event.message.usage
        this.usage = {
          inputTokens: u.input_tokens ?? 0,
          outputTokens: u.output_tokens ?? 0,
          cacheReadTokens: u.cache_read_input_tokens ?? 0,
          cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        }
        this.oneHourWrites = u.cache_creation?.ephemeral_1h_input_tokens ?? 0
        return []
      }
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block)
      case 'content_block_delta':
        return this.delta(event.index, event.delta)
      case 'content_block_stop':
        return this.stopBlock(event.index)
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? this.stopReason
        // Counters in message_delta are cumulative totals: overwrite, never add.
        const u = event.usage
        this.usage.outputTokens = u.output_tokens ?? this.usage.outputTokens
        if (u.input_tokens != null) this.usage.inputTokens = u.input_tokens
        if (u.cache_read_input_tokens != null) this.usage.cacheReadTokens = u.cache_read_input_tokens
        if (u.cache_creation_input_tokens != null) this.usage.cacheWriteTokens = u.cache_creation_input_tokens
        return []
      }
      case 'message_stop':
        this.stopped = true
        return []
      default:
        // "We may add new event types": ignore what we don't know.
        return []
    }
  }

  private startBlock(index: number, block: Anthropic.RawContentBlockStartEvent['content_block']): ModelStreamEvent[] {
    switch (block.type) {
      case 'text':
        this.pending.set(index, { kind: 'text', text: block.text ?? '' })
        break
      case 'thinking':
        this.pending.set(index, { kind: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' })
        break
      case 'redacted_thinking':
        this.pending.set(index, { kind: 'redacted_thinking', data: block.data })
        break
      case 'tool_use':
        this.pending.set(index, { kind: 'tool_use', id: block.id, name: block.name, json: '' })
        this.contentStarted = true
        return [{ type: 'block_start', index, kind: 'tool_use', id: block.id, name: block.name }]
      case 'server_tool_use':
        this.pending.set(index, { kind: 'server_tool_use', id: block.id, name: block.name, json: '' })
        this.contentStarted = true
        return []
      case 'web_search_tool_result':
        this.pending.set(index, { kind: 'whole', block: block as unknown as AssistantBlock })
        this.contentStarted = true
        return []
      default:
        return []
    }
    this.contentStarted = true
    const kind = this.pending.get(index)?.kind
    return [{ type: 'block_start', index, kind: kind === 'thinking' || kind === 'redacted_thinking' ? kind : 'text' }]
  }

  private delta(index: number, delta: Anthropic.RawContentBlockDelta): ModelStreamEvent[] {
    const block = this.pending.get(index)
    if (!block) return []
    if (delta.type === 'text_delta' && block.kind === 'text') {
      block.text += delta.text
      return [{ type: 'text_delta', index, text: delta.text }]
    }
    if (delta.type === 'thinking_delta' && block.kind === 'thinking') {
      block.thinking += delta.thinking
      return [{ type: 'thinking_delta', index, text: delta.thinking }]
    }
    if (delta.type === 'signature_delta' && block.kind === 'thinking') block.signature += delta.signature
    if (delta.type === 'input_json_delta' && (block.kind === 'tool_use' || block.kind === 'server_tool_use')) block.json += delta.partial_json
    return []
  }

  private stopBlock(index: number): ModelStreamEvent[] {
    const block = this.pending.get(index)
    if (!block) return []
    this.pending.delete(index)
    let finished: AssistantBlock
    switch (block.kind) {
      case 'text':
        finished = { type: 'text', text: block.text }
        break
      case 'thinking':
        finished = { type: 'thinking', thinking: block.thinking, signature: block.signature }
        break
      case 'redacted_thinking':
        finished = { type: 'redacted_thinking', data: block.data }
        break
      case 'tool_use':
        finished = { type: 'tool_use', id: block.id, name: block.name, input: this.parseToolInput(block) }
        break
      case 'server_tool_use':
        finished = { type: 'server_tool_use', id: block.id, name: block.name, input: this.parseToolInput(block) }
        break
      case 'whole':
        finished = block.block
        break
    }
    this.done.set(index, finished)
    return [{ type: 'block_stop', index, block: finished }]
  }

  private parseToolInput(block: { name: string; json: string }): unknown {
    if (block.json.trim() === '') return {}
    try {
      return JSON.parse(block.json)
    } catch {
      // Truncated by max_tokens, or malformed: decided at the end (see finish()).
      this.badToolJson.push(block.name)
      return {}
    }
  }

  /**
   * The closing event once the stream has ended: message_end, or a mid-stream error when the
   * stream stopped early or a tool input was not JSON (unless max_tokens explains it).
   */
  finish(): Extract<ModelStreamEvent, { type: 'message_end' | 'error' }> {
    if (!this.stopped) {
      return { type: 'error', reason: 'connection', message: 'the stream ended before message_stop', midStream: this.contentStarted }
    }
    if (this.badToolJson.length > 0 && this.stopReason !== 'max_tokens') {
      return { type: 'error', reason: 'unknown', message: `tool input is not valid JSON (${this.badToolJson.join(', ')})`, midStream: true }
    }
    const model = this.responseModel || this.requestModel
    const content = [...this.done.entries()].sort((a, b) => a[0] - b[0]).map(([, block]) => block)
    const { costUsd, note } = costOf(model, this.usage, { oneHourTokens: this.oneHourWrites })
    const end: Extract<ModelStreamEvent, { type: 'message_end' }> = { type: 'message_end', model, content, stopReason: this.stopReason, usage: { ...this.usage }, costUsd }
    if (note) end.costNote = note
    return end
  }
}
