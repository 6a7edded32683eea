import { AppError } from '../../../shared/ipc/result'
import type { ParallelDesk } from '../../worktrees/parallel/desk'
import type { Handlers } from '../router'

type ParallelChannels = Extract<keyof Handlers, `parallel.${string}`>

/**
 * Handlers of the `parallel.*` channels (parallel sessions on worktrees), delegated to the
 * {@link ParallelDesk}. A build without the agent answers UNAVAILABLE.
 */
export function parallelHandlers(deps: { parallel?: ParallelDesk }): Pick<Handlers, ParallelChannels> {
  const desk = (): ParallelDesk => {
    if (!deps.parallel) throw new AppError('UNAVAILABLE', 'Parallel sessions are not available in this build.')
    return deps.parallel
  }
  return {
    'parallel.start': ({ projectPath, prompt, models }) => desk().start(projectPath, prompt, models),
    'parallel.runs': ({ projectPath }) => desk().runs(projectPath),
    'parallel.run': ({ runId }) => desk().run(runId),
    'parallel.diff': ({ runId, sessionId, path }) => desk().diff(runId, sessionId, path),
    'parallel.test': ({ runId, command, sessionIds }) => desk().test(runId, command, sessionIds),
    'parallel.plan': ({ runId, picks, resolutions }) => desk().plan(runId, picks, resolutions),
    'parallel.apply': ({ runId, ...request }) => desk().apply(runId, request),
    'parallel.updatePreview': ({ runId, sessionId }) => desk().actions.updatePreview(runId, sessionId),
    'parallel.update': ({ runId, sessionId, ...choice }) => desk().actions.update(runId, sessionId, choice),
    'parallel.draftCommit': ({ runId, sessionId }) => desk().actions.draftCommit(runId, sessionId),
    'parallel.commit': ({ runId, sessionId, message }) => desk().actions.commit(runId, sessionId, message),
    'parallel.prStatus': async ({ runId, sessionId }) => {
      const status = await desk().actions.prStatus(runId, sessionId)
      return status.available ? { available: true } : { available: false, reason: status.reason }
    },
    'parallel.openPr': ({ runId, sessionId, title, body }) => desk().actions.openPr(runId, sessionId, { title, body }),
  }
}
