import { readFileSync } from 'node:fs'

/**
 * Is a command on a PTY waiting for the user to type? The heuristic, Linux only (elsewhere it
 * never says yes):
 *
 * 1. the PTY has printed nothing for `quietMs` (a command that is working usually prints, or at
 *    least is not blocked on its terminal), and
 * 2. the terminal's foreground process group — field 8 (`tpgid`) of `/proc/<pid>/stat` of the
 *    process on the PTY — has its leader asleep (`S`) in a terminal read: its
 *    `/proc/<tpgid>/wchan` is `n_tty_read`, `wait_woken` (where `n_tty_read` sleeps on current
 *    kernels) or `tty_read`; or, when the command runs in the sandbox (bubblewrap starts it in a
 *    session of its own, so the PTY's foreground group is bubblewrap, which only waits), a
 *    process below the PTY's (`/proc/<pid>/task/<pid>/children`, up to 64) is asleep so.
 *
 * A program that reads its terminal through another process of the group, or polls with a timer,
 * may be missed; one sleeping in `wait_woken` for another reason while silent could be taken for
 * a prompt — the badge then says "may be waiting", and nothing is typed for the user.
 */
export const TTY_READ_CHANNELS: ReadonlySet<string> = new Set(['n_tty_read', 'wait_woken', 'tty_read'])

/** How `/proc` is read (a seam for tests of the parsing only; the PTY test reads the real one). */
export type ReadProc = (path: string) => string

const readProc: ReadProc = (path) => readFileSync(path, 'utf8')

/** Fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses). */
function statFields(text: string): string[] {
  return text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/)
}

/** Whether the foreground process of `pid`'s terminal is asleep reading it. Never throws. */
export function readsTerminal(pid: number, read: ReadProc = readProc, platform = process.platform): boolean {
  if (platform !== 'linux') return false
  try {
    // After the name: state (3), ppid (4), pgrp (5), session (6), tty_nr (7), tpgid (8).
    const tpgid = Number(statFields(read(`/proc/${pid}/stat`))[5])
    if (Number.isInteger(tpgid) && tpgid > 0 && asleepReading(tpgid, read)) return true
    // The sandbox: the command reads the PTY from a session of its own, below the PTY's process.
    const queue = children(pid, read)
    for (let seen = 0; queue.length > 0 && seen < 64; seen++) {
      const child = queue.shift()!
      if (asleepReading(child, read)) return true
      queue.push(...children(child, read))
    }
    return false
  } catch {
    return false
  }
}

function asleepReading(pid: number, read: ReadProc): boolean {
  try {
    return statFields(read(`/proc/${pid}/stat`))[0] === 'S' && TTY_READ_CHANNELS.has(read(`/proc/${pid}/wchan`).trim())
  } catch {
    return false
  }
}

function children(pid: number, read: ReadProc): number[] {
  try {
    return read(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

export interface InputWaitWatch {
  /** The PTY printed something: it is not waiting now. */
  output(): void
  stop(): void
}

/**
 * Watches one PTY: `onChange(true)` once it has been quiet for `quietMs` with its foreground
 * process reading the terminal, `onChange(false)` when it prints again (or types arrive and it
 * goes on). Checks every `everyMs`; the caller calls `output()` on each chunk and `stop()` at exit.
 */
export function watchInputWait(pid: number, onChange: (waiting: boolean) => void, options: { quietMs?: number; everyMs?: number; read?: ReadProc } = {}): InputWaitWatch {
  const quietMs = options.quietMs ?? 2000
  let last = Date.now()
  let waiting = false
  const set = (next: boolean) => {
    if (next === waiting) return
    waiting = next
    onChange(next)
  }
  const timer = setInterval(() => {
    if (Date.now() - last < quietMs) return set(false)
    set(readsTerminal(pid, options.read))
  }, options.everyMs ?? 1000)
  timer.unref?.()
  return {
    output() {
      last = Date.now()
      set(false)
    },
    stop() {
      clearInterval(timer)
      set(false)
    },
  }
}
