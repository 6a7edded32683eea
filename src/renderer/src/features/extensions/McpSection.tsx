import type { ExtensionsOverview } from '../../../../shared/ipc/contract'
import { problemsOf, tokens } from './describe'
import { McpServerCard } from './McpServerCard'
import { Problems } from './Problems'

/** The project's MCP servers, what their tools cost in every request, and configuration problems. */
export function McpSection({ overview }: { overview: ExtensionsOverview }) {
  const servers = overview.servers
  const total = servers.reduce((sum, server) => sum + server.schemaTokens, 0)
  return (
    <>
      <Problems problems={problemsOf(overview.problems, 'mcp')} />
      {servers.length === 0 ? (
        <p className="extensions__empty">
          No MCP servers are configured. Add them to <code>.mcp.json</code> in the project, or to <code>mcpServers</code> in your settings.
        </p>
      ) : (
        <p className="extensions__summary">
          {servers.length} server{servers.length === 1 ? '' : 's'}; their tools add {tokens(total)} to every request.
        </p>
      )}
      {servers.map((server) => (
        <McpServerCard key={server.name} server={server} />
      ))}
    </>
  )
}
