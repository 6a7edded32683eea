import { useState } from 'react'
import type { ExtensionsOverview } from '../../../../shared/ipc/contract'
import { AddMcpServerForm } from './AddMcpServerForm'
import { problemsOf, tokens } from './describe'
import { McpServerCard } from './McpServerCard'
import { Problems } from './Problems'

/** The project's MCP servers, what their tools cost in every request, and configuration problems. */
export function McpSection({ overview, projectPath, onChanged }: { overview: ExtensionsOverview; projectPath: string; onChanged(): void }) {
  const servers = overview.servers
  const [adding, setAdding] = useState(false)
  const [added, setAdded] = useState<string | null>(null)
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
      {added && <p className="extensions__summary" role="status">Added to {added}.</p>}
      {adding ? (
        <AddMcpServerForm
          projectPath={projectPath}
          onAdded={(file) => {
            setAdding(false)
            setAdded(file)
            onChanged()
          }}
        />
      ) : (
        <button type="button" className="button button--small mcp-add__open" onClick={() => setAdding(true)}>
          Add MCP server…
        </button>
      )}
    </>
  )
}
