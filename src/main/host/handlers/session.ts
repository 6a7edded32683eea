import type { Handlers } from '../router'
import type { SessionService } from '../../session/types'

/** The `session.*` request handlers over a {@link SessionService}; the service raises AppErrors for expected failures. */
export function sessionHandlers(
  service: SessionService,
): Pick<
  Handlers,
  | 'session.create'
  | 'session.prompt'
  | 'session.abort'
  | 'session.list'
  | 'session.resume'
  | 'session.continue'
  | 'session.history'
  | 'session.rename'
  | 'session.delete'
> {
  return {
    'session.create': ({ projectPath }) => service.create(projectPath),
    'session.prompt': ({ sessionId, text }) => service.prompt(sessionId, text),
    'session.abort': ({ sessionId }) => service.abort(sessionId),
    'session.list': ({ projectPath }) => service.list(projectPath),
    'session.resume': ({ sessionId }) => service.resume(sessionId),
    'session.continue': ({ projectPath }) => service.continueLatest(projectPath),
    'session.history': ({ sessionId }) => service.history(sessionId),
    'session.rename': ({ sessionId, title }) => service.rename(sessionId, title),
    'session.delete': ({ sessionId }) => service.delete(sessionId),
  }
}
