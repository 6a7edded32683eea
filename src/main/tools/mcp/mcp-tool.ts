import { z } from 'zod'
import { McpCallError, normalizeServerName, type McpConnection, type McpToolInfo } from '../../services/mcp'
import { defineTool, errorResult } from '../define-tool'
import type { AnyTool, ToolPreview } from '../types'
import { apiInputSchema } from './mcp-schema'
import { toToolResult } from './mcp-result'

/** Longest description sent for an MCP tool (a server's essay should not cost every request). */
const MAX_DESCRIPTION = 2048
/** The API's limit on tool names. */
const MAX_NAME = 64

/** `mcp__<server>__<tool>`, the name permission rules, hooks and the model use. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeServerName(server)}__${normalizeServerName(tool)}`
}

/** Options shared by every MCP tool of a session. */
export interface McpToolOptions {
  /** Cap on one result's text, in tokens (`MAX_MCP_OUTPUT_TOKENS`). */
  outputTokens: number
}

/**
 * One MCP server tool as a Sous tool. Its traits come from the server's annotations, read as
 * hints and cautiously: only `readOnlyHint: true` makes it read-only and concurrency-safe;
 * it is destructive unless the server says `destructiveHint: false` (MCP's own default). Permission
 * is governance's business: MCP tools ask unless a rule allows them (`mcp__server`,
 * `mcp__server__tool`). Returns undefined when the name would exceed the API's limit.
 */
export function createMcpTool(connection: McpConnection, info: McpToolInfo, options: McpToolOptions): AnyTool | undefined {
  const name = mcpToolName(connection.name, info.name)
  if (name.length > MAX_NAME) return undefined
  const readOnly = info.annotations.readOnlyHint === true
  const destructive = !readOnly && info.annotations.destructiveHint !== false
  const { schema, note } = apiInputSchema(info.inputSchema)
  const ownText = info.description.length > MAX_DESCRIPTION ? `${info.description.slice(0, MAX_DESCRIPTION)}…` : info.description
  const description = [note, ownText || `${info.name} (from the MCP server "${connection.name}")`].filter(Boolean).join('\n\n')
  const tool = defineTool({
    name,
    label: `${connection.name} · ${info.annotations.title ?? info.name}`,
    description,
    input: z.record(z.string(), z.unknown()),
    isReadOnly: () => readOnly,
    isDestructive: () => destructive,
    isConcurrencySafe: () => readOnly,
    summarize: (input) => `${connection.name}: ${info.name} ${briefJson(input)}`.trim(),
    preview: async (input): Promise<ToolPreview> => ({ kind: 'text', text: previewText(connection, info, input) }),
    async execute(input, ctx) {
      const details = { server: connection.name, tool: info.name }
      try {
        const result = await connection.callTool(info.name, input, ctx.signal)
        return toToolResult(result, { outputTokens: options.outputTokens, details })
      } catch (error) {
        if (error instanceof McpCallError) return errorResult(error.message, details)
        throw error
      }
    },
    ...(info.maxResultChars !== undefined && { maxResultChars: info.maxResultChars }),
  })
  return { ...tool, jsonSchema: schema }
}

/** What the approval card says about a call: where it goes, what the server claims it does, the arguments. */
function previewText(connection: McpConnection, info: McpToolInfo, input: Record<string, unknown>): string {
  const hints = info.annotations
  const nature = hints.readOnlyHint === true
    ? 'Read-only, according to the server.'
    : hints.destructiveHint === false
      ? 'Changes things but destroys nothing, according to the server.'
      : 'May change or delete things (the server does not say otherwise).'
  const extra = [hints.idempotentHint === true && 'Safe to repeat.', hints.openWorldHint === true && 'Reaches outside systems.'].filter(Boolean).join(' ')
  return [
    `MCP tool "${info.name}" of the server "${connection.name}" (${connection.transportName}, ${connection.definition.scope} configuration)`,
    `${nature}${extra ? ` ${extra}` : ''} Annotations are hints from the server, not guarantees.`,
    '',
    'Arguments:',
    JSON.stringify(input, null, 2),
  ].join('\n')
}

function briefJson(input: Record<string, unknown>): string {
  const text = JSON.stringify(input)
  if (text === '{}') return ''
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}
