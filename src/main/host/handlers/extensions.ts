import { AppError } from '../../../shared/ipc/result'
import type { ExtensionService } from '../../extensions/runtime/extension-service'
import type { Handlers } from '../router'

/**
 * Handlers of `extensions.list`, `mcp.restart`, `mcp.approve`, `mcp.setEnabled` and `hooks.list`: thin delegation to the session
 * runtime's {@link ExtensionService}; without one (a build with no agent) they answer UNAVAILABLE.
 */
export function extensionHandlers(deps: { extensions?: ExtensionService }): Pick<Handlers, 'extensions.list' | 'mcp.restart' | 'mcp.approve' | 'mcp.setEnabled' | 'hooks.list'> {
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
  }
}
