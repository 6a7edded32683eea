import type { McpServerStatus } from '../../../../shared/ipc/contract'
import { groupDigits } from '../../lib/group-digits'
import { scopeLabel, statusLabel, tokens } from './describe'
import { useExtensions } from './store'

/**
 * One MCP server: its status (with the reason it failed or waits), where it is configured, its
 * controls (approve, restart, turn off or on), its tools — each with what its schema costs in every
 * request and a switch to offer it to the model or not — and its log.
 */
export function McpServerCard({ server }: { server: McpServerStatus }) {
  const { busy, restart, approve, setEnabled } = useExtensions()
  const live = server.status === 'connected' || server.status === 'failed' || server.status === 'connecting'
  const offered = server.tools.filter((tool) => tool.enabled).length
  return (
    <article className="extensions__card" aria-label={`MCP server ${server.name}`}>
      <header className="extensions__card-header">
        <h3 className="extensions__name">{server.name}</h3>
        <span className={`extensions__status extensions__status--${server.status}`} data-testid={`mcp-status-${server.name}`}>
          {statusLabel(server.status)}
        </span>
        <span className="extensions__meta">
          {scopeLabel(server.scope)} · {server.transport}
          {server.serverInfo ? ` · ${server.serverInfo.name} ${server.serverInfo.version}` : ''}
        </span>
      </header>
      {server.file && <p className="extensions__file">{server.file}</p>}
      {server.error && <p className={server.status === 'failed' ? 'extensions__error' : 'extensions__note'}>{server.error}</p>}
      {server.warnings.map((warning) => (
        <p key={warning} className="extensions__note">
          {warning}
        </p>
      ))}
      <div className="extensions__actions">
        {server.status === 'needs-approval' && (
          <button type="button" className="button button--small button--primary" disabled={busy !== null} onClick={() => void approve(server.name)}>
            Approve and start
          </button>
        )}
        {live && (
          <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void restart(server.name)}>
            {busy === server.name ? 'Restarting…' : 'Restart'}
          </button>
        )}
        <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void setEnabled(server.name, server.turnedOff)}>
          {server.turnedOff ? 'Turn on' : 'Turn off'}
        </button>
      </div>
      {server.tools.length > 0 && (
        <table className="extensions__tools" aria-label={`Tools of ${server.name}`}>
          <caption>
            {offered} of {server.tools.length} tools offered to the model, {tokens(server.schemaTokens)} in every request
          </caption>
          <thead>
            <tr>
              <th scope="col">Offer</th>
              <th scope="col">Tool</th>
              <th scope="col">Hints</th>
              <th scope="col" className="extensions__number">
                Tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {server.tools.map((tool) => (
              <tr key={tool.name} className={tool.enabled ? undefined : 'extensions__off'}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Offer ${tool.name} to the model`}
                    checked={tool.enabled}
                    disabled={server.turnedOff || busy !== null}
                    onChange={(event) => void setEnabled(server.name, event.target.checked, tool.serverName)}
                  />
                </td>
                <td>
                  <code>{tool.name}</code>
                  <span className="extensions__description">{tool.description}</span>
                </td>
                <td>{tool.readOnly ? 'read-only' : tool.destructive ? 'may destroy' : 'changes things'}</td>
                <td className="extensions__number">{groupDigits(tool.schemaTokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(server.resources.length > 0 || server.prompts.length > 0) && (
        <p className="extensions__meta">
          {server.resources.length} resource{server.resources.length === 1 ? '' : 's'}
          {server.prompts.length > 0 && <> · prompts: {server.prompts.map((prompt) => `/${prompt.command}`).join(', ')}</>}
        </p>
      )}
      <details className="extensions__log">
        <summary>Log ({server.logs.length} lines)</summary>
        <pre aria-label={`Log of ${server.name}`}>
          {server.logs.map((line) => `${new Date(line.at).toLocaleTimeString()} [${line.source}] ${line.text}`).join('\n') || 'Nothing yet.'}
        </pre>
      </details>
    </article>
  )
}
