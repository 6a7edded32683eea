import { AppError } from '../../../shared/ipc/result'
import type { EventHub } from '../../base/event-hub'
import type { PtyProcess, PtyService } from '../../pty/types'
import type { AgentTerminals } from '../../workspace/agent-terminals'
import type { Handlers } from '../router'
import { existingDirectory } from './folders'
import { createOutputTail, type OutputTail } from './output-tail'

/**
 * The user's terminals: PTYs the renderer created. The Bash tool's PTYs (`agent`) can be typed
 * into, resized and acknowledged too, so a command waiting for input goes on, but never killed
 * from here (the agent owns their lives).
 */
export interface UserTerminals {
  handlers: Pick<Handlers, 'pty.create' | 'pty.write' | 'pty.resize' | 'pty.ack' | 'pty.kill' | 'pty.attach'>
  /** How many terminals are alive. */
  readonly size: number
  /** Kills every user terminal. */
  dispose(): void
}

/** How much of a terminal's output is kept for a reloaded page to draw again. */
export const SCROLLBACK_CHARS = 200_000

/** A user terminal: its process, its recent output, and what no page has acknowledged yet. */
interface Live {
  proc: PtyProcess
  scrollback: OutputTail
  unacked: number
}

/**
 * Builds the `pty.*` handlers. Output goes out as batched `pty.data` events, the end as one
 * `pty.exit`; the renderer acknowledges rendered characters with `pty.ack` (flow control).
 */
export function userTerminals(deps: { pty?: PtyService; events: EventHub; agent?: AgentTerminals }): UserTerminals {
  const live = new Map<string, Live>()
  const find = (id: string): PtyProcess => {
    const proc = live.get(id)?.proc ?? deps.agent?.get(id)
    if (!proc) throw new AppError('NOT_FOUND', `No terminal ${id}.`)
    return proc
  }
  return {
    get size() {
      return live.size
    },
    handlers: {
      'pty.create': async ({ cwd, cols, rows }) => {
        if (!deps.pty) throw new AppError('UNAVAILABLE', 'Terminals are not available in this build.')
        const folder = await existingDirectory(cwd)
        let proc: PtyProcess
        try {
          // The PTY service starts from this process's environment, without the credentials it holds back.
          proc = deps.pty.spawn({ cwd: folder, cols, rows, flowControl: true })
        } catch (error) {
          throw new AppError('UNAVAILABLE', `Cannot start a terminal: ${(error as Error).message}`)
        }
        const { id } = proc
        const entry: Live = { proc, scrollback: createOutputTail(SCROLLBACK_CHARS), unacked: 0 }
        live.set(id, entry)
        proc.onData((data) => {
          entry.scrollback.push(data)
          entry.unacked += data.length
          deps.events.emit('pty.data', { id, data })
        })
        proc.onExit(({ exitCode, signal }) => {
          live.delete(id)
          deps.events.emit('pty.exit', signal === undefined ? { id, exitCode } : { id, exitCode, signal })
        })
        return { id }
      },
      'pty.write': ({ id, data }) => find(id).write(data),
      'pty.resize': ({ id, cols, rows }) => find(id).resize(cols, rows),
      'pty.ack': ({ id, chars }) => {
        const entry = live.get(id)
        if (entry) entry.unacked = Math.max(0, entry.unacked - chars)
        find(id).ack(chars)
      },
      'pty.kill': ({ id }) => {
        const entry = live.get(id)
        if (!entry) throw new AppError('NOT_FOUND', `No terminal ${id}.`)
        entry.proc.kill()
      },
      'pty.attach': ({ id }) => {
        const entry = live.get(id)
        if (!entry) throw new AppError('NOT_FOUND', `No terminal ${id} (its shell has ended).`)
        // The page that would have acknowledged this output is gone.
        if (entry.unacked > 0) entry.proc.ack(entry.unacked)
        entry.unacked = 0
        return { data: entry.scrollback.text() }
      },
    },
    dispose() {
      for (const entry of live.values()) entry.proc.kill()
    },
  }
}
