import type { McpServerState } from '../../services/mcp'

/** Why a named server cannot serve a request (unknown, or not connected), or undefined when it can. */
export function serverProblem(states: readonly McpServerState[], name: string): string | undefined {
  const state = states.find((candidate) => candidate.name === name)
  if (!state) {
    const known = states.map((candidate) => candidate.name)
    return `No MCP server named "${name}".${known.length ? ` Configured servers: ${known.join(', ')}.` : ' No MCP servers are configured.'}`
  }
  if (state.status === 'connected') return undefined
  if (state.status === 'connecting') return `MCP server "${name}" is still starting; WaitForMcpServers waits for it.`
  return `MCP server "${name}" is not connected (${state.status}${state.error ? `: ${state.error}` : ''}).`
}
