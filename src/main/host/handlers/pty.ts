import { AppError } from '../../../shared/ipc/result'
import type { EventHub } from '../../base/event-hub'
import type { PtyProcess, PtyService } from '../../pty/types'
import type { AgentTerminals } from '../../workspace/agent-terminals'
import type { Handlers } from '../router'
import { existingDirectory } from './folders'

/**
 * The user's terminals: PTYs the renderer created. The Bash tool's PTYs (`agent`) can be typed
 * into, resized and acknowledged too, so a command waiting for input goes on, but never killed
 * from here (the agent owns their lives).
 */
export interface UserTerminals {
  handlers: Pick<Handlers, 'pty.create' | 'pty.write' | 'pty.resize' | 'pty.ack' | 'pty.kill'>
  /** How many terminals are alive. */
  readonly size: number
  /** Kills every user terminal. */
  dispose(): void
}

/**
 * Builds the `pty.*` handlers. Output goes out as batched `pty.data` events, the end as one
 * `pty.exit`; the renderer acknowledges rendered characters with `pty.ack` (flow control).
 */
export function userTerminals(deps: { pty?: PtyService; events: EventHub; agent?: AgentTerminals }): UserTerminals {
  const live = new Map<string, PtyProcess>()
  const find = (id: string): PtyProcess => {
    const proc = live.get(id) ?? deps.agent?.get(id)
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
        live.set(id, proc)
        proc.onData((data) => deps.events.emit('pty.data', { id, data }))
        proc.onExit(({ exitCode, signal }) => {
          live.delete(id)
          deps.events.emit('pty.exit', signal === undefined ? { id, exitCode } : { id, exitCode, signal })
        })
        return { id }
      },
      'pty.write': ({ id, data }) => find(id).write(data),
      'pty.resize': ({ id, cols, rows }) => find(id).resize(cols, rows),
      'pty.ack': ({ id, chars }) => find(id).ack(chars),
      'pty.kill': ({ id }) => {
        const proc = live.get(id)
        if (!proc) throw new AppError('NOT_FOUND', `No terminal ${id}.`)
        proc.kill()
      },
    },
    dispose() {
      for (const proc of live.values()) proc.kill()
    },
  }
}
