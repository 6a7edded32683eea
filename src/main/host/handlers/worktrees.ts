import { AppError } from '../../../shared/ipc/result'
import type { WorktreeDesk } from '../../worktrees/desk'
import type { Handlers } from '../router'

/**
 * Handlers of the `worktrees.*` channels, delegated to the {@link WorktreeDesk} (the session
 * runtime's). A build without the agent answers UNAVAILABLE.
 */
export function worktreesHandlers(deps: { worktrees?: WorktreeDesk }): Pick<Handlers, 'worktrees.availability' | 'worktrees.list' | 'worktrees.changes' | 'worktrees.archive' | 'worktrees.cleanup'> {
  const desk = (): WorktreeDesk => {
    if (!deps.worktrees) throw new AppError('UNAVAILABLE', 'Worktrees are not available in this build.')
    return deps.worktrees
  }
  return {
    'worktrees.availability': ({ projectPath }) => desk().service.availability(projectPath),
    'worktrees.list': async ({ projectPath }) => ({ worktrees: await desk().service.list(projectPath) }),
    'worktrees.changes': ({ projectPath, path }) => desk().service.loss(projectPath, path),
    'worktrees.archive': ({ sessionId, force }) => desk().archive(sessionId, force === true),
    'worktrees.cleanup': async ({ projectPath, paths, force }) => ({ results: await desk().cleanup(projectPath, paths, force === true) }),
  }
}
