import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { Handlers } from '../router'

/**
 * Auto mode's channels: the session's decision log, and "ask me next time". Thin delegation to the
 * {@link SessionService}; without one every channel answers UNAVAILABLE.
 */
export function autoModeHandlers(deps: { sessions?: SessionService }): Pick<Handlers, 'session.autoDecisions' | 'session.askNextTime'> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    return deps.sessions
  }
  return {
    'session.autoDecisions': ({ sessionId }) => service().autoDecisions(sessionId),
    'session.askNextTime': ({ sessionId, decisionId, scope }) => service().askNextTime(sessionId, decisionId, scope),
  }
}
