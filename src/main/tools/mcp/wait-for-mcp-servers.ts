import { z } from 'zod'
import { defineTool } from '../define-tool'

const description = `
Waits for MCP servers that are still starting in the background, then reports each one's status.
Use it when you need a tool or resource of a server that has not connected yet; its tools become
available on your next request once it is connected.
`

/** Longest wait one call may ask for. */
const MAX_WAIT_MS = 60_000

/** WaitForMcpServers: waits (bounded) for servers still starting; never starts or restarts one. */
export const waitForMcpServersTool = defineTool({
  name: 'WaitForMcpServers',
  label: 'Wait for MCP servers',
  description,
  input: z.strictObject({
    servers: z.array(z.string()).optional().describe('Names of the servers to wait for (default: every server still starting)'),
    timeout: z.number().int().min(0).max(MAX_WAIT_MS).default(30_000).describe('How long to wait at most, in ms'),
  }),
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (input) => (input.servers?.length ? `Wait for ${input.servers.join(', ')}` : 'Wait for MCP servers'),
  async execute(input, ctx) {
    const mcp = ctx.mcp
    if (!mcp) return { content: 'No MCP servers are configured.' }
    await mcp.waitFor(input.servers, input.timeout, ctx.signal)
    const states = mcp.states().filter((state) => !input.servers?.length || input.servers.includes(state.name))
    const unknown = (input.servers ?? []).filter((name) => !states.some((state) => state.name === name))
    const lines = states.map((state) => `${state.name}: ${state.status}${state.error ? ` (${state.error})` : ''}${state.status === 'connected' ? `, ${state.tools.length} tools` : ''}`)
    for (const name of unknown) lines.push(`${name}: no such server`)
    return { content: lines.join('\n') || 'No MCP servers are configured.', details: { servers: states.map((state) => ({ name: state.name, status: state.status })) } }
  },
})
