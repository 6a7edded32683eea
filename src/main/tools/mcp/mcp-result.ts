import type { McpCallResult, McpContent } from '../../services/mcp'
import type { ImageBlock, TextBlock } from '../../services/model/types'
import type { ToolResult } from '../types'

/** Image types the Messages API accepts inline. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** Claude Code's default output limit for one MCP result (`MAX_MCP_OUTPUT_TOKENS`). */
export const DEFAULT_MCP_OUTPUT_TOKENS = 25_000

/**
 * Turns what an MCP server returned into a tool result: text stays text, images the API accepts
 * stay images, everything else becomes a short note (never raw binary). Text past the output cap
 * (`outputTokens` × 4 characters) is cut with a note saying how to raise it; the result budget then
 * persists what is still large.
 */
export function toToolResult(result: McpCallResult, options: { outputTokens: number; details: Record<string, unknown> }): ToolResult {
  const blocks: Array<TextBlock | ImageBlock> = []
  for (const item of result.content) blocks.push(toBlock(item))
  if (blocks.length === 0 && result.structuredContent !== undefined) blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) })
  if (blocks.length === 0) blocks.push({ type: 'text', text: result.isError ? 'The tool failed without saying why.' : '(no output)' })
  const content = capText(blocks, options.outputTokens * 4)
  const onlyText = content.every((block) => block.type === 'text')
  return {
    content: onlyText ? content.map((block) => (block as TextBlock).text).join('\n') : content,
    details: { ...options.details, ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }) },
    ...(result.isError && { isError: true }),
  }
}

/** One content item as the model should see it. */
export function toBlock(item: McpContent): TextBlock | ImageBlock {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text }
    case 'image':
      if (IMAGE_TYPES.has(item.mimeType)) return { type: 'image', source: { type: 'base64', media_type: item.mimeType, data: item.data } }
      return { type: 'text', text: `[image of type ${item.mimeType} omitted: the model accepts png, jpeg, gif and webp]` }
    case 'audio':
      return { type: 'text', text: `[audio (${item.mimeType}) omitted]` }
    case 'resource':
      if (item.text !== undefined) return { type: 'text', text: `[resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}]\n${item.text}` }
      return { type: 'text', text: `[binary resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}, ${Math.floor(((item.blob ?? '').length * 3) / 4)} bytes omitted]` }
    case 'resource_link':
      return { type: 'text', text: `[resource link: ${item.name} <${item.uri}>${item.description ? ` ${item.description}` : ''}]` }
  }
}

function capText(blocks: Array<TextBlock | ImageBlock>, maxChars: number): Array<TextBlock | ImageBlock> {
  let left = maxChars
  let cut = 0
  const out: Array<TextBlock | ImageBlock> = []
  for (const block of blocks) {
    if (block.type !== 'text') {
      out.push(block)
      continue
    }
    if (block.text.length <= left) {
      out.push(block)
      left -= block.text.length
      continue
    }
    if (left > 0) out.push({ type: 'text', text: block.text.slice(0, left) })
    cut += block.text.length - Math.max(left, 0)
    left = 0
  }
  if (cut > 0) {
    out.push({ type: 'text', text: `\n[MCP output truncated: ${cut.toLocaleString('en-US')} more characters over the limit of ${maxChars.toLocaleString('en-US')} (MAX_MCP_OUTPUT_TOKENS=${maxChars / 4}). Ask for less (filters, pages), or raise MAX_MCP_OUTPUT_TOKENS.]` })
  }
  return out
}
