import type { SessionAgents } from '../agents/session-agents'
import type { ShellState } from '../tools/shell/shell-state'
import type { BackgroundWork } from './background-news'

/**
 * The main agent's background work as `sous -p` waits for it: its subagents (each runs in the
 * background once the turn that started it has ended) and its background commands. A subagent's
 * own commands and agents end with it, so they need no watching here.
 */
export function mainBackgroundWork(shell: ShellState, agents: () => SessionAgents): BackgroundWork {
  const commands = () => shell.background.list().filter((command) => command.status === 'running')
  return {
    running: () => [
      ...agents().running().map((agent) => `agent "${agent.description}" (${agent.id})`),
      ...commands().map((command) => `command "${command.description?.trim() || command.command}" (${command.id})`),
    ],
    anyEnded: () => {
      // Only what runs: an idle agent set would resolve at once and spin the caller's loop.
      const running = [...(agents().busy ? [agents().whenIdle()] : []), ...commands().map((command) => command.settled)]
      return running.length > 0 ? Promise.race(running) : Promise.resolve()
    },
    async stopAll() {
      await Promise.all([agents().stopAll(), ...commands().map((command) => shell.background.stop(command.id))])
    },
  }
}
