import { CheckpointRecorder } from '../checkpoints/recorder'
import type { PermissionGate } from '../governance/gate/gate'
import { transcriptPath } from '../store/transcript'
import type { RuntimeParts } from './shared'

/**
 * The checkpoints feature for one session: a recorder over the session's workspace, on as long
 * as `fileCheckpointingEnabled` is not false in the current settings. Its prompt checkpoint is
 * taken from the session's prompt lifecycle; its call checkpoints come from the tool context
 * (the main agent's and, through the shared context, every subagent's calls).
 */
export function createSessionCheckpoints(parts: RuntimeParts, session: { projectPath: string; sessionId: string; gate: PermissionGate }): CheckpointRecorder {
  const { options } = parts
  return new CheckpointRecorder({
    home: options.home,
    sessionId: session.sessionId,
    projectPath: session.projectPath,
    env: options.env,
    transcriptPath: transcriptPath(options.home, session.projectPath, session.sessionId),
    enabled: () => session.gate.fileCheckpointingEnabled(),
    notice: (message, level = 'warning') => options.hub.emit('agent.event', { type: 'notice', sessionId: session.sessionId, agentId: 'main', level, topic: 'storage', message }),
  })
}
