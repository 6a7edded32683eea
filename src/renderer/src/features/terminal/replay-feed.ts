import { create } from 'zustand'
import type { PastCommand } from './history'
import { asTerminalText, commandFooter, commandHeader, sessionBanner } from './agent-format'

/**
 * What a session replay shows in the Agent terminal: the Bash commands that had ended by the
 * replay's position (null: no replay, the terminal is live). The shell sets it as the replay
 * moves (`app/use-replay.ts`); the Agent terminal writes what changed ({@link replayWrites}).
 */
export interface ReplayFeed {
  commands: readonly PastCommand[] | null
  title: string
}

export const useAgentReplay = create<ReplayFeed>()(() => ({ commands: null, title: '' }))

/** Sets (or, with null, ends) the replay the Agent terminal shows. */
export function showAgentReplay(commands: readonly PastCommand[] | null, title = 'the session as recorded'): void {
  const now = useAgentReplay.getState()
  if (now.commands === commands || (now.commands === null && commands === null)) return
  useAgentReplay.setState({ commands, title })
}

/**
 * What to write when the replayed commands go from `before` to `after`: the new ones only when the
 * replay moved forward (`reset` false), or everything again after a clear when it moved back.
 * Pure.
 */
export function replayWrites(before: readonly PastCommand[] | null, after: readonly PastCommand[] | null, title: string): { reset: boolean; text: string } {
  if (after === null) return { reset: false, text: before === null ? '' : sessionBanner('Replay ended: commands from here on run live') }
  const extends_ = before !== null && before.length <= after.length && before.every((command, index) => sameCommand(command, after[index]!))
  const fresh = extends_ ? after.slice(before.length) : after
  const text = (extends_ ? '' : sessionBanner(`Replay: ${title}`)) + fresh.map((command) => commandHeader(command.command, false) + (command.output ? asTerminalText(command.output) : '') + commandFooter(command.exitCode)).join('')
  return { reset: !extends_, text }
}

function sameCommand(a: PastCommand, b: PastCommand): boolean {
  return a.command === b.command && a.output === b.output && a.exitCode === b.exitCode
}
