import { api } from '../../api'
import { takeSessionHistory } from '../../api/session-history'
import {
  AGENT_GREETING,
  asTerminalText,
  BASH_END_OSC,
  commandFooter,
  commandHeader,
  exitCodeOf,
  sessionBanner,
} from './agent-format'
import { pastCommands } from './history'
import { replayWrites, useAgentReplay, type ReplayFeed } from './replay-feed'
import type { XtermKit } from './xterm-setup'

/**
 * Shows, in `kit`, every Bash command the agent runs in the session `sessionId()`: the command
 * line, its output live, and its exit code. What the user types goes to the command running
 * most recently, so a `Continue? [y/N]` prompt or a password question can be answered and the
 * agent's turn goes on. Returns the function that stops listening (the PTYs belong to the agent).
 */
export function wireAgent(
  kit: XtermKit,
  sessionId: () => string | null,
): { showSession(id: string | null): void; dispose(): void } {
  const { term } = kit
  /** Live agent PTYs shown here, oldest first; typing goes to the last. */
  const live: string[] = []
  /** Ended commands whose footer is written (by the marker or by the exit). */
  const ended = new Set<string>()
  let shown = 0
  let shownSession: string | null = null
  /** Commands that ran live since the last switch: a replay then would repeat them. */
  let liveSinceSwitch = 0
  term.write(AGENT_GREETING)

  // The Bash tool ends a command with this marker; it carries the exit code.
  const marker = term.parser.registerOscHandler(BASH_END_OSC, (payload) => {
    const current = live.at(-1)
    if (current && !ended.has(current)) {
      ended.add(current)
      term.write(commandFooter(exitCodeOf(payload)))
    }
    return true
  })

  const offStart = api.on('agent.terminal', (event) => {
    if (event.sessionId !== sessionId()) return
    live.push(event.ptyId)
    liveSinceSwitch++
    term.write(commandHeader(event.command, shown++ === 0))
  })
  const offData = api.on('pty.data', (event) => {
    if (live.includes(event.id)) term.write(event.data)
  })
  const offExit = api.on('pty.exit', (event) => {
    if (!live.includes(event.id)) return
    // xterm parses writes later, in order: settle after the output written before the exit, so
    // the end marker in it (and its exit code) is seen first.
    term.write('', () => {
      const at = live.indexOf(event.id)
      if (at !== -1) live.splice(at, 1)
      // Killed before its marker (timeout, Stop): say so.
      if (!ended.has(event.id)) term.write(commandFooter(undefined))
      ended.delete(event.id)
    })
  })
  const typing = term.onData((data) => {
    const target = live.at(-1)
    if (target) void api.invoke('pty.write', { id: target, data })
  })
  const resizing = term.onResize(({ cols, rows }) => {
    for (const id of live) void api.invoke('pty.resize', { id, cols, rows })
  })
  /** Switching to a stored session replays its earlier commands (dimmed banner, then each one). */
  const showSession = (id: string | null) => {
    // No session yet (a new one starts with the next prompt, or the chat is between projects):
    // keep what is shown; the next real session decides.
    if (id === null || id === shownSession) return
    const first = shownSession === null
    shownSession = id
    liveSinceSwitch = 0
    // A session the chat just opened: the history it fetched (see session-history.ts).
    void takeSessionHistory(id).then((result) => {
      // A session that has not stored anything yet has nothing to replay.
      if (!result.ok || shownSession !== id || liveSinceSwitch > 0) return
      const past = pastCommands(result.value.events)
      if (past.length === 0 && first) return
      term.write(sessionBanner(result.value.summary.title))
      for (const command of past) {
        term.write(commandHeader(command.command, false))
        if (command.output) term.write(asTerminalText(command.output))
        term.write(commandFooter(command.exitCode))
      }
      shown += past.length
    })
  }
  // A session replay writes the commands that had ended by its position (see replay-feed.ts);
  // one already running when this terminal mounts is written from its start.
  const writeReplay = (before: ReplayFeed['commands'], now: ReplayFeed) => {
    const { reset, text } = replayWrites(before, now.commands, now.title)
    if (reset) term.reset()
    if (text) term.write(text)
  }
  if (useAgentReplay.getState().commands !== null) writeReplay(null, useAgentReplay.getState())
  const offReplay = useAgentReplay.subscribe((now, before) => writeReplay(before.commands, now))
  const dispose = () => {
    offReplay()
    marker.dispose()
    offStart()
    offData()
    offExit()
    typing.dispose()
    resizing.dispose()
  }
  return { showSession, dispose }
}
