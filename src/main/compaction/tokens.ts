import type { Usage } from '../../shared/protocol/agent-event'
import type { Message, TextBlock, ToolSchema } from '../services/model/types'

/**
 * Token counts without a tokenizer: the API's own count of the previous request (its usage) plus
 * an estimate of what was added since. The estimate is a quarter of the characters of each
 * block's JSON, scaled by how far the last estimate was from the API's figure, and padded by a
 * third for what the API has not seen yet (better to compact a little early than to overflow).
 */

/** What an image costs, roughly (about 1.15 megapixels). */
const IMAGE_TOKENS = 1_600
/** Padding on estimates of messages the API has not counted yet. */
const UNSEEN_PADDING = 4 / 3

const perMessage = new WeakMap<Message, number>()

/** A quarter of the characters, rounded up. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** Estimated tokens of one message (cached per message object: messages are never mutated). */
export function messageTokens(message: Message): number {
  const cached = perMessage.get(message)
  if (cached !== undefined) return cached
  let tokens = 0
  if (typeof message.content === 'string') tokens = estimateTextTokens(message.content) + 4
  else for (const block of message.content) tokens += blockTokens(block)
  perMessage.set(message, tokens)
  return tokens
}

/** Estimated tokens of a list of messages. */
export function messagesTokens(messages: readonly Message[]): number {
  let total = 0
  for (const message of messages) total += messageTokens(message)
  return total
}

/** Estimated tokens of the system blocks and tool schemas a request carries. */
export function fixedTokens(system: readonly TextBlock[], tools: readonly ToolSchema[]): number {
  let total = 0
  for (const block of system) total += estimateTextTokens(block.text) + 4
  for (const tool of tools) total += estimateTextTokens(JSON.stringify(tool))
  return total
}

function blockTokens(block: Exclude<Message['content'], string>[number]): number {
  if (block.type === 'image') return IMAGE_TOKENS
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    let tokens = estimateTextTokens(block.tool_use_id) + 8
    for (const part of block.content) tokens += part.type === 'image' ? IMAGE_TOKENS : part.type === 'text' ? estimateTextTokens(part.text) + 4 : estimateTextTokens(part.tool_name) + 4
    return tokens
  }
  const { cache_control: _ignored, ...rest } = block as typeof block & { cache_control?: unknown }
  return estimateTextTokens(JSON.stringify(rest))
}

/** All the tokens a request's prompt occupied, from its usage (cache reads and writes are prompt too). */
export function promptTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
}

/**
 * The session's running count. After each reply, {@link observe} anchors the count on the API's
 * figure for the messages that request sent; {@link count} adds padded estimates of the messages
 * appended since. Any rewrite of earlier messages ({@link invalidate}) drops the anchor until the
 * next reply. The ratio between the API's figures and our estimates calibrates later estimates.
 */
export class TokenLedger {
  private anchor: { length: number; tokens: number; epoch: number } | undefined
  private epoch = 0
  private ratio = 1

  /** The request that just returned sent the first `length` messages of the working list as they are. */
  observe(usage: Usage, length: number, estimated: number): void {
    const tokens = promptTokensOf(usage)
    if (tokens <= 0) return
    this.anchor = { length, tokens, epoch: this.epoch }
    // Calibrate, within reason: a proxy that reports odd figures must not switch compaction off.
    if (estimated > 0) this.ratio = Math.min(2, Math.max(0.5, tokens / estimated))
  }

  /** The request sent something other than the working list (a projection): no anchor. */
  observeProjected(usage: Usage, estimated: number): void {
    const tokens = promptTokensOf(usage)
    this.anchor = undefined
    if (tokens > 0 && estimated > 0) this.ratio = Math.min(2, Math.max(0.5, tokens / estimated))
  }

  /** Earlier messages were rewritten: the API's last figure no longer describes them. */
  invalidate(): void {
    this.epoch++
    this.anchor = undefined
  }

  /** Scales a raw estimate by the calibration. */
  calibrated(estimate: number): number {
    return Math.ceil(estimate * this.ratio)
  }

  /** Tokens a request with these messages would take; `fixed` is the system prompt and tools (estimated). */
  count(messages: readonly Message[], fixed: number): number {
    const anchor = this.anchor
    if (anchor && anchor.epoch === this.epoch && messages.length >= anchor.length) {
      let added = 0
      for (let index = anchor.length; index < messages.length; index++) added += messageTokens(messages[index]!)
      return anchor.tokens + Math.ceil(added * this.ratio * UNSEEN_PADDING)
    }
    return this.calibrated(fixed + messagesTokens(messages))
  }
}
