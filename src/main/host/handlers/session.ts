import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { Handlers } from '../router'

/** Handlers of the `session.*` channels: thin delegation to the {@link SessionService}. */
export function sessionHandlers(deps: {
  sessions?: SessionService
}): Pick<Handlers, 'session.create' | 'session.prompt' | 'session.abort'> {
  const sessions = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    return deps.sessions
  }
  return {
    'session.create': ({ projectPath }) => sessions().create(projectPath),
    'session.prompt': ({ sessionId, text }) => sessions().prompt(sessionId, text),
    'session.abort': ({ sessionId }) => sessions().abort(sessionId),
  }
}
