import type { PtyService } from '../../pty/types'

/** What one test command did in one worktree. */
export interface TestRun {
  command: string
  exitCode: number | null
  /** The end of what it printed (colour codes removed). */
  output: string
  durationMs: number
  timedOut: boolean
}

/** Most output kept per run: the end, where test runners print their summary. */
const KEEP_CHARS = 64_000

/** Removes terminal escape sequences (colours, cursor moves) so the output reads as text. */
export function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g, '').replace(/\r\n?/g, '\n')
}

/**
 * Runs the user's test command in a worktree as the user's own terminal runs commands: a real
 * PTY from the PTY service (the child environment policy applies: no Sous credentials, none of the
 * variables the user held back), the user's shell, no agent permission gate or sandbox — the
 * command is the user's, typed by the user, never the model's. Stops it after `timeoutMs`.
 * Contract: never rejects.
 */
export function runTestCommand(pty: PtyService, options: { cwd: string; command: string; timeoutMs?: number; shell?: string }): Promise<TestRun> {
  const started = performance.now()
  const shell = options.shell ?? process.env['SHELL'] ?? '/bin/sh'
  return new Promise((resolve) => {
    let output = ''
    let timedOut = false
    let proc: ReturnType<PtyService['spawn']>
    try {
      proc = pty.spawn({ file: shell, args: ['-c', options.command], cwd: options.cwd, cols: 160, rows: 40, flowControl: false })
    } catch (error) {
      resolve({ command: options.command, exitCode: null, output: `Could not start: ${(error as Error).message}`, durationMs: 0, timedOut: false })
      return
    }
    const timer = setTimeout(() => {
      timedOut = true
      proc.kill()
    }, options.timeoutMs ?? 10 * 60_000)
    proc.onData((data) => {
      output = (output + data).slice(-KEEP_CHARS * 2)
    })
    proc.onExit(({ exitCode }) => {
      clearTimeout(timer)
      resolve({ command: options.command, exitCode: timedOut ? null : exitCode, output: plainText(output).slice(-KEEP_CHARS), durationMs: Math.round(performance.now() - started), timedOut })
    })
  })
}
