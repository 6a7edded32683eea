import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { Handlers } from '../router'

/**
 * Handlers of the `context.*` channels: the context view's figures and `/compact`, delegated to
 * the {@link SessionService}. A build without sessions answers UNAVAILABLE.
 */
export function contextHandlers(deps: { sessions?: SessionService }): Pick<Handlers, 'context.inspect' | 'context.compact'> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    return deps.sessions
  }
  return {
    'context.inspect': ({ sessionId }) => service().inspectContext(sessionId),
    'context.compact': ({ sessionId, instructions }) => service().compact(sessionId, instructions),
  }
}
