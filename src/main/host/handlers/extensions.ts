import { AppError } from '../../../shared/ipc/result'
import type { ExtensionService } from '../../extensions/runtime/extension-service'
import { addMcpServer, mcpTargetFile } from '../../services/mcp/add-server'
import type { Handlers } from '../router'

/**
 * Handlers of `extensions.list`, `mcp.restart`, `mcp.approve`, `mcp.setEnabled` and `hooks.list`: thin delegation to the session
 * runtime's {@link ExtensionService}; without one (a build with no agent) they answer UNAVAILABLE. `mcp.add` writes the
 * form's server to the file the user picked (`services/mcp/add-server.ts`).
 */
export function extensionHandlers(deps: { extensions?: ExtensionService; sousHome: string; env?: NodeJS.ProcessEnv }): Pick<Handlers, 'extensions.list' | 'mcp.restart' | 'mcp.approve' | 'mcp.setEnabled' | 'hooks.list' | 'mcp.add'> {
  const service = (): ExtensionService => {
    if (!deps.extensions) throw new AppError('UNAVAILABLE', 'Extensions are not available in this build.')
    return deps.extensions
  }
  return {
    'extensions.list': ({ projectPath }) => service().overview(projectPath),
    'mcp.restart': ({ projectPath, server }) => service().restartServer(projectPath, server),
    'mcp.approve': ({ projectPath, server }) => service().approveServer(projectPath, server),
    'hooks.list': ({ projectPath }) => service().hooks(projectPath),
    'mcp.setEnabled': ({ projectPath, server, tool, enabled }) => service().setEnabled(projectPath, { server, enabled, ...(tool !== undefined && { tool }) }),
    'mcp.add': ({ projectPath, target, name, server }) => {
      const file = mcpTargetFile(target, projectPath, deps.sousHome)
      // A project's .mcp.json is shared with the repository (readable like its other files); the user's settings stay private.
      addMcpServer(file, name, server, { env: deps.env ?? process.env, cwd: projectPath, mode: target === 'project' ? 0o644 : 0o600, plainFileOnly: target === 'project' })
      return { file }
    },
  }
}
