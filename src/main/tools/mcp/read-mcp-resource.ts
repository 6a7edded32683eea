import { z } from 'zod'
import { McpCallError } from '../../services/mcp'
import { defineTool, errorResult } from '../define-tool'
import type { ImageBlock, TextBlock } from '../../services/model/types'
import { toBlock } from './mcp-result'
import { serverProblem } from './server-problem'

const description = `
Reads one resource of an MCP server by its URI (see ListMcpResourcesTool for what exists).
`

/** ReadMcpResourceTool (Claude Code's name and schema): one resource's contents. */
export const readMcpResourceTool = defineTool({
  name: 'ReadMcpResourceTool',
  label: 'Read MCP resource',
  description,
  input: z.strictObject({
    server: z.string().describe('The MCP server name'),
    uri: z.string().describe('The resource URI to read'),
  }),
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (input) => `${input.server}: ${input.uri}`,
  async execute(input, ctx) {
    const problem = serverProblem(ctx.mcp?.states() ?? [], input.server)
    const connection = ctx.mcp?.get(input.server)
    if (problem || !connection) return errorResult(problem ?? `No MCP server named "${input.server}".`)
    try {
      const contents = await connection.readResource(input.uri, ctx.signal)
      const blocks: Array<TextBlock | ImageBlock> = contents.map(toBlock)
      return { content: blocks.length ? blocks : '(the resource is empty)', details: { server: input.server, uri: input.uri } }
    } catch (error) {
      if (error instanceof McpCallError) return errorResult(error.message)
      throw error
    }
  },
})
