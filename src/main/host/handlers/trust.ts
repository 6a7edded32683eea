import { isAbsolute } from 'node:path'
import { AppError } from '../../../shared/ipc/result'
import { grantTrust, listTrusted, revokeTrust, trustStatusOnOpen } from '../../governance/trust/trust'
import type { Handlers } from '../router'
import { existingDirectory } from './folders'

/**
 * Handlers of the trust step: what a folder's own files would change, trusting it as shown, and
 * revoking (Settings). The decisions live in governance/trust; these only check the folder, and
 * tell the agent side when a folder was trusted (its held-back MCP servers may start).
 */
export function trustHandlers(deps: { sousHome: string; onGranted?(projectPath: string): void }): Pick<Handlers, 'trust.status' | 'trust.grant' | 'trust.revoke' | 'trust.list'> {
  return {
    'trust.status': async ({ projectPath }) => trustStatusOnOpen(await existingDirectory(projectPath), deps.sousHome),
    'trust.grant': async ({ projectPath, fingerprint }) => {
      const granted = grantTrust(await existingDirectory(projectPath), deps.sousHome, fingerprint)
      if (!granted.ok) throw new AppError(granted.reason === 'changed' ? 'CONFLICT' : 'UNAVAILABLE', granted.message)
      deps.onGranted?.(projectPath)
      return granted.status
    },
    // A folder that is gone can still be forgotten.
    'trust.revoke': ({ projectPath }) => {
      if (!isAbsolute(projectPath)) throw new AppError('INVALID_INPUT', `Not an absolute path: ${projectPath}`)
      const error = revokeTrust(projectPath, deps.sousHome)
      if (error) throw new AppError('UNAVAILABLE', error)
    },
    'trust.list': () => listTrusted(deps.sousHome),
  }
}
