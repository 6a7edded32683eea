import { z } from 'zod'
import { defineTool, errorResult } from '../define-tool'
import { serverProblem } from './server-problem'

const description = `
Lists the resources that connected MCP servers offer (files, records, documents a server exposes by URI).
- Pass server to list only that server's resources
- Read one with ReadMcpResourceTool, giving its server and uri
`

/** ListMcpResourcesTool (Claude Code's name and schema): the resources of one or every MCP server. */
export const listMcpResourcesTool = defineTool({
  name: 'ListMcpResourcesTool',
  label: 'MCP resources',
  description,
  input: z.strictObject({ server: z.string().optional().describe('Optional server name to filter resources by') }),
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (input) => (input.server ? `MCP resources of ${input.server}` : 'MCP resources'),
  async execute(input, ctx) {
    const states = ctx.mcp?.states() ?? []
    if (input.server !== undefined) {
      const problem = serverProblem(states, input.server)
      if (problem) return errorResult(problem)
    }
    const chosen = states.filter((state) => input.server === undefined || state.name === input.server)
    const resources = chosen.flatMap((state) => state.resources.map((resource) => ({ ...resource, server: state.name })))
    const waiting = chosen.filter((state) => state.status === 'connecting').map((state) => state.name)
    const note = waiting.length > 0 ? `\n(Still starting: ${waiting.join(', ')}. WaitForMcpServers waits for them.)` : ''
    if (resources.length === 0) return { content: `No resources found.${note}`, details: { count: 0 } }
    return { content: `${JSON.stringify(resources, null, 2)}${note}`, details: { count: resources.length } }
  },
})
