import type { McpServerState } from '../services/mcp'

/**
 * What the model is told with a prompt sent while MCP servers are still connecting (Claude Code
 * 2.1.328's words, with Sous's WaitForMcpServers): which servers, and how to wait for them, so it
 * neither calls their tools before they exist nor tells the user the capability is missing.
 * Undefined when no server is on its way.
 */
export function connectingReminder(states: readonly McpServerState[]): string | undefined {
  const names = states.filter((state) => !state.turnedOff && (state.status === 'connecting' || state.status === 'pending')).map((state) => state.name)
  if (names.length === 0) return undefined
  return [
    `The following MCP servers are still connecting — their tools (typically named mcp__<server>__*) are not yet available but will appear shortly: ${names.join(', ')}.`,
    "If the user's request might be served by one of these servers (even if they didn't name it explicitly), call WaitForMcpServers to wait for them: once a server connects, its tools are added to your tool list. Do not report a capability as unavailable while they are still connecting.",
  ].join(' ')
}
