import type { ToolResult } from './types'

/**
 * A tool result's content as plain text: text blocks joined by a newline, an image named by its
 * media type, a loaded deferred tool by its name. The one conversion, so `tool_end` events, hooks (`tool_response`, PostToolUseFailure's
 * error), the result budget and tests all see the same text.
 */
export function resultText(content: ToolResult['content']): string {
  if (typeof content === 'string') return content
  return content.map((block) => (block.type === 'text' ? block.text : block.type === 'image' ? `[image ${block.source.media_type}]` : `[tool ${block.tool_name} loaded]`)).join('\n')
}
