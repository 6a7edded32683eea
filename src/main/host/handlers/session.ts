import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { WorktreeDesk } from '../../worktrees/desk'
import type { Handlers } from '../router'

type SessionChannels =
  | 'session.create'
  | 'session.prompt'
  | 'session.abort'
  | 'session.continueTurn'
  | 'session.resumePause'
  | 'session.setReasoning'
  | 'session.setMode'
  | 'session.setModel'
  | 'session.list'
  | 'session.resume'
  | 'session.continue'
  | 'session.history'
  | 'session.rename'
  | 'session.delete'

/**
 * Handlers of the `session.*` channels: thin delegation to the {@link SessionService}, which
 * raises AppErrors for expected failures. Without a service (a build with no agent) every
 * channel answers UNAVAILABLE. `session.create` with `worktree` starts the session in a new git
 * worktree through the {@link WorktreeDesk} (UNAVAILABLE without one).
 */
export function sessionHandlers(deps: { sessions?: SessionService; worktrees?: WorktreeDesk }): Pick<Handlers, SessionChannels> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    return deps.sessions
  }
  return {
    'session.create': async ({ projectPath, worktree }) => {
      if (!worktree) return service().create(projectPath)
      if (!deps.worktrees) throw new AppError('UNAVAILABLE', 'Worktree sessions are not available in this build.')
      const { notes, ...created } = await deps.worktrees.createSession(projectPath, { ...(worktree.name && { name: worktree.name }) })
      return { ...created, ...(notes.length > 0 && { notes }) }
    },
    'session.prompt': ({ sessionId, text, images }) => service().prompt(sessionId, text, images),
    'session.abort': ({ sessionId }) => service().abort(sessionId),
    'session.continueTurn': ({ sessionId, proceed }) => service().continueTurn(sessionId, proceed),
    'session.resumePause': ({ sessionId, pauseId, choice, raiseTo }) => service().resumePause(sessionId, pauseId, choice, raiseTo),
    'session.setReasoning': ({ sessionId, thinking, effort }) => service().setReasoning(sessionId, { ...(thinking !== undefined && { thinking }), ...(effort && { effort }) }),
    'session.setMode': ({ sessionId, mode }) => service().setMode(sessionId, mode),
    'session.setModel': ({ sessionId, model }) => service().setModel(sessionId, model),
    'session.list': ({ projectPath }) => service().list(projectPath),
    'session.resume': ({ sessionId }) => service().resume(sessionId),
    'session.continue': ({ projectPath }) => service().continueLatest(projectPath),
    'session.history': ({ sessionId }) => service().history(sessionId),
    'session.rename': ({ sessionId, title }) => service().rename(sessionId, title),
    'session.delete': ({ sessionId }) => service().delete(sessionId),
  }
}
