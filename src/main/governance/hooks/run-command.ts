import { spawn } from 'node:child_process'
import type { HookRun } from './types'

/**
 * Output kept per stream. Stdout is parsed whole as JSON, so the cap is far above any real answer
 * (a cut answer would not parse and a large deny would silently become no decision); the strings
 * taken from it are capped separately, as Claude Code does (see output.ts).
 */
export const MAX_HOOK_OUTPUT = 1_000_000

export interface RunCommandOptions {
  command: string
  args?: string[]
  shell?: string
  stdin: string
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
}

/**
 * Runs one command hook: JSON on stdin, stdout/stderr captured. The hook runs in its own process
 * group (detached) so a timeout or abort kills it and everything it started.
 * Contract: never throws; spawn failures come back as `error`.
 */
export function runCommandHook(o: RunCommandOptions): Promise<HookRun> {
  const started = performance.now()
  return new Promise<HookRun>((resolve) => {
    const argv = o.args ? [o.command, ...o.args] : [o.shell ?? '/bin/sh', '-c', o.command]
    let stdout = ''
    let stderr = ''
    let timedOut = false
    let done = false
    const child = spawn(argv[0] as string, argv.slice(1), { cwd: o.cwd, env: o.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    const killGroup = (): void => {
      if (child.pid === undefined) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, o.timeoutMs)
    const onAbort = (): void => killGroup()
    o.signal?.addEventListener('abort', onAbort, { once: true })
    const finish = (exitCode: number | null, error?: string): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      const cut = stdout.length > MAX_HOOK_OUTPUT
      resolve({
        exitCode,
        stdout: stdout.slice(0, MAX_HOOK_OUTPUT),
        stderr: stderr.slice(0, MAX_HOOK_OUTPUT),
        durationMs: Math.round(performance.now() - started),
        timedOut,
        ...(cut ? { stdoutTruncated: true } : {}),
        ...(error ? { error } : {}),
      })
    }
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length <= MAX_HOOK_OUTPUT) stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length <= MAX_HOOK_OUTPUT) stderr += d
    })
    child.on('error', (e) => finish(null, `hook could not start: ${e.message}`))
    child.on('close', (code) => finish(code, timedOut ? `hook timed out after ${o.timeoutMs} ms` : undefined))
    // A background process the hook started may keep stdout open; don't wait for it past a short drain.
    child.on('exit', (code) => {
      setTimeout(() => finish(code, timedOut ? `hook timed out after ${o.timeoutMs} ms` : undefined), 250).unref()
    })
    child.stdin.on('error', () => {
      // A hook that exits without reading stdin closes the pipe early; that's fine.
    })
    child.stdin.end(o.stdin)
  })
}
