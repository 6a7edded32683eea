import type { ToolResult } from './types'

/**
 * A tool result's content as plain text: text blocks joined by a newline, an image named by its
 * media type. The one conversion, so `tool_end` events, hooks (`tool_response`, PostToolUseFailure's
 * error), the result budget and tests all see the same text.
 */
export function resultText(content: ToolResult['content']): string {
  if (typeof content === 'string') return content
  return content.map((block) => (block.type === 'text' ? block.text : `[image ${block.source.media_type}]`)).join('\n')
}
