import type { McpServer } from '@agentclientprotocol/sdk'

/**
 * The MCP servers an ACP client hands to `session/new` as one `--mcp-config` JSON text in Claude
 * Code's `mcpServers` shape (stdio `command`/`args`/`env`, `type: "http"`/`"sse"` with `url` and
 * `headers`). They are the editor's, set by the user there, so they count as command-line servers
 * (the highest precedence, no project trust involved); the project's own `.mcp.json` still needs
 * trust and approval as in the app. Undefined when the client sent none.
 */
export function mcpConfigText(servers: readonly McpServer[]): string | undefined {
  if (servers.length === 0) return undefined
  const entries: Record<string, unknown> = {}
  for (const server of servers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      entries[server.name] = { type: server.type, url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) }
    } else if ('command' in server) {
      entries[server.name] = { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])) }
    }
  }
  return JSON.stringify({ mcpServers: entries })
}
