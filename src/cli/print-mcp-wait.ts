import { mcpConnectTimeoutMs, type McpServers } from '../main/services/mcp'

/** Past the servers' own `MCP_TIMEOUT`, how long the wait allows for their lists to arrive. */
const GRACE_MS = 2_000

/**
 * `sous -p` as Claude Code's `-p`: before the first request, start the configured MCP servers
 * (`.mcp.json`, `--mcp-config`, the user's) and wait for them, each bounded by `MCP_TIMEOUT`, so a
 * one-prompt run is offered their tools at once. A server that failed or is still starting is said
 * on stderr (and is `failed`/`connecting` in the init line's `mcp_servers`); the run goes on.
 * Returns at once when no server is configured.
 */
export async function waitForMcpServers(servers: McpServers | undefined, env: Readonly<Record<string, string | undefined>>, io: { stderr: { write(text: string): unknown }; signal?: AbortSignal }): Promise<void> {
  if (!servers || servers.all().length === 0) return
  servers.start()
  const timeoutMs = mcpConnectTimeoutMs(env)
  await servers.waitFor(undefined, timeoutMs + GRACE_MS, io.signal)
  for (const state of servers.states()) {
    if (state.status === 'failed') io.stderr.write(`sous: warning: MCP server "${state.name}" failed to connect${state.error ? `: ${state.error}` : ''}; the run goes on without its tools.\n`)
    else if (state.status === 'connecting' || state.status === 'pending') io.stderr.write(`sous: warning: MCP server "${state.name}" was still connecting after ${timeoutMs} ms (MCP_TIMEOUT); the run goes on without its tools for now.\n`)
  }
}
