import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { McpConfigProblem, McpServerDefinition } from './config'

/** The SDK's transport and message types, for the remote layer (which imports no SDK itself). */
export type McpTransport = Transport
export type McpMessage = JSONRPCMessage

/**
 * MCP servers that run elsewhere and reach this host through a tunnel: on a remote host
 * (`sous host --stdio`), the servers the user marked `local` on their own machine
 * (`remoteLocalMcpServers`), whose JSON-RPC messages travel as frames of the remote channel
 * (host/remote/mcp-tunnel.ts). Defined here, beside the other transports, so the MCP layer needs
 * nothing of the remote layer.
 */
export interface TunnelledMcpServers {
  /** The names offered now (asked when a project's servers are made). */
  names(): readonly string[]
  /** A fresh transport to one of them; `onEnd` hears why it ended (the local server failed, the channel dropped). */
  transport(name: string, onEnd: (end: { gone: string }) => void): Transport
}

/**
 * The servers the local Sous offers come first, as user servers: the user chose them for this
 * connection, so a same-named server of this host (a project's `.mcp.json` included) is skipped
 * with a problem saying so, rather than shadowing the user's own server.
 */
export function withTunnelled(servers: McpServerDefinition[], tunnelled: TunnelledMcpServers | undefined, problems: McpConfigProblem[]): McpServerDefinition[] {
  const names = tunnelled?.names() ?? []
  if (names.length === 0) return servers
  const offered = new Set(names)
  for (const server of servers) if (offered.has(server.name)) problems.push({ ...(server.file && { file: server.file }), server: server.name, message: `MCP server "${server.name}" is run by the local Sous (remoteLocalMcpServers); this host's definition is not used` })
  const local = names.map((name): McpServerDefinition => ({ name, scope: 'user', config: { type: 'tunnel' }, fingerprint: `tunnel:${name}`, warnings: [] }))
  return [...local, ...servers.filter((server) => !offered.has(server.name))]
}
