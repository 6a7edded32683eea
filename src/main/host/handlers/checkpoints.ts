import { AppError } from '../../../shared/ipc/result'
import type { CheckpointDesk } from '../../checkpoints/desk'
import type { Handlers } from '../router'

/**
 * Handlers of the `checkpoints.*` channels: the rewind picker's list, the restore preview, the
 * restore and fork, the files one call changed, delegated to the {@link CheckpointDesk}. A build without the agent answers
 * UNAVAILABLE.
 */
export function checkpointsHandlers(deps: { checkpoints?: CheckpointDesk }): Pick<Handlers, 'checkpoints.list' | 'checkpoints.preview' | 'checkpoints.restore' | 'checkpoints.fork' | 'checkpoints.callFiles'> {
  const desk = (): CheckpointDesk => {
    if (!deps.checkpoints) throw new AppError('UNAVAILABLE', 'Checkpoints are not available in this build.')
    return deps.checkpoints
  }
  return {
    'checkpoints.list': ({ sessionId }) => desk().list(sessionId),
    'checkpoints.preview': ({ sessionId, checkpointId }) => desk().preview(sessionId, checkpointId),
    'checkpoints.restore': (choice) => desk().restore(choice),
    'checkpoints.fork': ({ sessionId, checkpointId }) => desk().fork(sessionId, checkpointId),
    'checkpoints.callFiles': ({ sessionId, toolUseId }) => desk().callFiles(sessionId, toolUseId),
  }
}
