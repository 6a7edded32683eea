import type { EventHub } from '../base/event-hub'
import type { PtyProcess } from '../pty/types'
import { watchInputWait } from './input-wait'

/**
 * The PTYs the Bash tool runs commands on, made visible: each one is announced as an
 * `agent.terminal` event and its output goes out as `pty.data` (its end as `pty.exit`), so the
 * desktop's Agent terminal shows every command live, and `pty.write` reaches it so the user can
 * answer a prompt (`Continue? [y/N]`, a password) and the command goes on.
 */
export interface AgentTerminals {
  /** Wire this into the session's tool context as `onPtySpawn(proc, command)`. */
  attach(sessionId: string, proc: PtyProcess, command: string): void
  /** A live agent PTY by id. */
  get(id: string): PtyProcess | undefined
  /** How many agent PTYs are live. */
  readonly size: number
}

/** Builds the registry over the hub every transport forwards; `inputWait` tunes the detector (tests). */
export function createAgentTerminals(events: EventHub, options: { inputWait?: { quietMs?: number; everyMs?: number } } = {}): AgentTerminals {
  const live = new Map<string, PtyProcess>()
  return {
    get size() {
      return live.size
    },
    attach(sessionId, proc, command) {
      const { id } = proc
      live.set(id, proc)
      events.emit('agent.terminal', { sessionId, ptyId: id, command })
      // A command that stops to ask (a prompt, a password) is told to the user (input-wait.ts).
      const wait = watchInputWait(proc.pid, (waiting) => events.emit('agent.inputWait', { sessionId, ptyId: id, command, waiting }), options.inputWait)
      proc.onData((data) => {
        wait.output()
        events.emit('pty.data', { id, data })
      })
      proc.onExit(({ exitCode, signal }) => {
        wait.stop()
        live.delete(id)
        events.emit('pty.exit', signal === undefined ? { id, exitCode } : { id, exitCode, signal })
      })
    },
    get: (id) => live.get(id),
  }
}
