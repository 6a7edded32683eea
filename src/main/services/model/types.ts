import type { Usage } from '../../../shared/protocol/agent-event'
import type { EffortLevel, ThinkingConfig } from './capabilities'

/**
 * Our own shapes for the Messages API, so nothing above the model service imports the SDK.
 * They mirror the wire format one to one (snake_case where the API has it).
 */

export type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' }

export type TextBlock = { type: 'text'; text: string; cache_control?: CacheControl }
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string }
export type RedactedThinkingBlock = { type: 'redacted_thinking'; data: string }
export type ImageBlock = {
  type: 'image'
  source: { type: 'base64'; media_type: string; data: string }
  cache_control?: CacheControl
}
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
/** A client-side tool search's answer: the API expands the named deferred tool's definition here. */
export type ToolReferenceBlock = { type: 'tool_reference'; tool_name: string }
export type ToolResultBlock = {
  type: 'tool_result'
  tool_use_id: string
  content: string | Array<TextBlock | ImageBlock | ToolReferenceBlock>
  is_error?: boolean
  cache_control?: CacheControl
}

/**
 * A server tool's call and result (the API's web search): kept as the API sent them and echoed back
 * unchanged in later requests, never run by us.
 */
export type ServerToolUseBlock = { type: 'server_tool_use'; id: string; name: string; input: unknown }
export type WebSearchResultBlock = {
  type: 'web_search_tool_result'
  tool_use_id: string
  content: Array<{ type: 'web_search_result'; title: string; url: string; encrypted_content?: string; page_age?: string | null }> | { type: 'web_search_tool_result_error'; error_code: string }
}

export type AssistantBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ServerToolUseBlock | WebSearchResultBlock
export type UserBlock = TextBlock | ImageBlock | ToolResultBlock

export type Message =
  | { role: 'user'; content: string | UserBlock[] }
  | { role: 'assistant'; content: AssistantBlock[] }

/** A tool as the API sees it. */
export interface ToolSchema {
  name: string
  description: string
  input_schema: Record<string, unknown>
  cache_control?: CacheControl
  /**
   * Deferred (tool search): the API leaves the definition out of the prompt until a
   * `tool_reference` block in a tool result names it (see engine/deferred-tools.ts).
   */
  defer_loading?: true
}

/** The API's server-side web search tool (`web_search_20250305`), as a request offers it. */
export interface WebSearchServerTool {
  type: 'web_search_20250305'
  name: 'web_search'
  allowed_domains?: string[]
  blocked_domains?: string[]
  max_uses?: number
}

export interface ModelRequest {
  model: string
  system: TextBlock[]
  messages: Message[]
  tools: ToolSchema[]
  /** Server tools the API runs itself (the web search side request), sent after `tools`. */
  serverTools?: WebSearchServerTool[]
  maxTokens: number
  /** Extended thinking (see capabilities.ts `requestReasoning`); omitted means thinking off. */
  thinking?: ThinkingConfig
  /** `output_config.effort`; only for models that take it. */
  effort?: EffortLevel
  temperature?: number
  /** `none`: the tools are sent (so the prompt cache still matches) but the model may not call them. */
  toolChoice?: 'auto' | 'none' | { type: 'tool'; name: string }
  signal: AbortSignal
}

/** Why a request failed, as a value. */
export type ModelErrorReason =
  | 'prompt_too_long'
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'connection'
  | 'authentication'
  | 'permission'
  | 'invalid_request'
  | 'not_found'
  | 'aborted'
  | 'unknown'

/**
 * What a streaming request yields, in order. `block_stop` carries the finished block (a tool_use
 * with its parsed input) so the engine can start a safe tool before the reply ends. Exactly one
 * of `message_end` or `error` comes last.
 */
export type ModelStreamEvent =
  | { type: 'request_start'; model: string; attempt: number }
  | { type: 'retry'; attempt: number; reason: ModelErrorReason; delayMs: number; message: string }
  | { type: 'fallback'; from: string; to: string; reason: string }
  | { type: 'block_start'; index: number; kind: 'text' | 'thinking' | 'tool_use' | 'redacted_thinking'; id?: string; name?: string }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; text: string }
  | { type: 'block_stop'; index: number; block: AssistantBlock }
  | {
      type: 'message_end'
      model: string
      content: AssistantBlock[]
      stopReason: string | null
      usage: Usage
      costUsd: number
      /** Set when the cost is an estimate (e.g. a model missing from the price table). */
      costNote?: string
    }
  | {
      type: 'error'
      reason: ModelErrorReason
      message: string
      /** True when the error arrived after the stream had started (partial output is void). */
      midStream: boolean
      status?: number
    }

/** The one line to the model. Contract: `stream` never throws for API failures. */
export interface ModelService {
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>
}
