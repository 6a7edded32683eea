import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { ShellState } from '../tools/shell/shell-state'

/**
 * Reports an agent's background commands to the tree: `shell_start` when one starts, `shell_end`
 * when it ends (however it ends). Returns the function that stops watching.
 */
export function watchShells(
  shell: ShellState,
  identity: { sessionId: string; agentId: string; parentToolUseId?: string },
  emit: (event: AgentEvent) => void,
  now: () => number,
): () => void {
  return shell.background.watch((background) => {
    const status = background.status
    if (status === 'running') emit({ ...identity, type: 'shell_start', shellId: background.id, command: background.command, at: now() })
    else emit({ ...identity, type: 'shell_end', shellId: background.id, status, exitCode: background.exitCode ?? null, at: now() })
  })
}
