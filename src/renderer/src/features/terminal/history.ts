import type { AgentEvent } from '../../../../shared/protocol/agent-event'

/** A Bash command the agent ran earlier in a session, as its stored events tell it. */
export interface PastCommand {
  command: string
  output: string
  exitCode: number | undefined
}

/**
 * The Bash commands of a stored session, in order: the command from the call's input, the
 * output the model was given, and the exit code from the result's details. Pure.
 */
export function pastCommands(events: readonly AgentEvent[]): PastCommand[] {
  const commands = new Map<string, string>()
  const past: PastCommand[] = []
  for (const event of events) {
    if (event.parentToolUseId) continue
    if (event.type === 'tool_state' && event.name === 'Bash') {
      const command = (event.input as { command?: unknown } | undefined)?.command
      if (typeof command === 'string') commands.set(event.toolUseId, command)
    } else if (event.type === 'tool_end' && event.name === 'Bash') {
      const command = commands.get(event.toolUseId)
      if (command === undefined) continue
      const exitCode = (event.details as { exitCode?: unknown } | undefined)?.exitCode
      past.push({
        command,
        output: event.content,
        exitCode: typeof exitCode === 'number' ? exitCode : undefined,
      })
    }
  }
  return past
}
