import { projectDataDir } from '../base/paths'
import type { PermissionGate } from '../governance/gate/gate'
import type { ApprovalAsker } from '../governance/approvals/queue'
import type { ReminderSink } from '../context/reminders'
import type { McpRegistry } from '../services/mcp/registry'
import { unattended, type ProjectTrust, type SessionRuntimeOptions } from './options'
import { createExtensionParts, type ExtensionParts } from './extension-parts'

/** What opening a session's extensions takes from its runtime. */
export interface ExtensionsRuntime {
  options: SessionRuntimeOptions
  mcp: McpRegistry
  userHome: string
  trust: ProjectTrust
}

/** The session whose extensions are opened. */
export interface ExtensionsSession {
  projectPath: string
  sessionId: string
  reminders: ReminderSink
}

/**
 * The session's MCP tools, skills and custom commands. Desktop sessions start the project's servers
 * now; unattended runs once the answer to the session's first model request begins (its first event
 * after `request_start`), so spawning them never delays writing that request.
 */
export function openExtensions(parts: ExtensionsRuntime, opening: ExtensionsSession, gate: PermissionGate, queue: ApprovalAsker): ExtensionParts {
  const { options } = parts
  const { projectPath, sessionId } = opening
  const extensions = createExtensionParts({
    registry: parts.mcp,
    projectPath,
    projectDataDir: projectDataDir(options.home, projectPath),
    sessionId,
    userHome: parts.userHome,
    env: options.env,
    trusted: () => parts.trust.extensions(projectPath),
    check: (tool, input) => gate.check(tool, input),
    grants: queue.sessionGrants,
    notice: (level, message) => options.hub.emit('agent.event', { type: 'notice', sessionId, agentId: 'main', level, message }),
    reminders: opening.reminders,
    deferServerStart: unattended(options),
  })
  if (!unattended(options)) return extensions
  let requested = false
  const stopWatching = options.hub.subscribe((channel, payload) => {
    const event = payload as { type?: string; sessionId?: string }
    if (channel !== 'agent.event' || event.sessionId !== sessionId) return
    if (event.type === 'request_start') requested = true
    else if (requested) {
      stopWatching()
      extensions.startServers()
    }
  })
  return {
    ...extensions,
    async release() {
      stopWatching()
      await extensions.release()
    },
  }
}
