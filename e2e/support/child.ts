import { spawn, type ChildProcess } from 'node:child_process'

/** A child process we started, with the line it announced itself with. */
export interface Child {
  readonly process: ChildProcess
  /** The first stdout line matching the pattern given to {@link startChild}. */
  readonly announced: RegExpMatchArray
  /** The last few KB of its stdout and stderr, for error messages. */
  output(): string
  /** SIGTERM, then SIGKILL after a grace period; resolves once it has exited. */
  stop(): Promise<void>
}

export interface StartOptions {
  command: string
  args: string[]
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** The announcement to wait for (the first line that matches). */
  ready: RegExp
  /** What the child is, for messages. */
  name: string
  timeoutMs?: number
}

const KEEP = 8000

/**
 * Starts a real child process and waits until it prints its ready line. Fails with the child's
 * own output when it exits or stays silent instead, so a broken build reads as such.
 */
export function startChild(options: StartOptions): Promise<Child> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-KEEP)
  }
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }

  return new Promise((resolve, reject) => {
    let stdout = ''
    let settled = false
    const fail = (why: string) => {
      if (settled) return
      settled = true
      void stop().then(() => reject(new Error(`${options.name} ${why}.\n--- its output ---\n${log}`)))
    }
    const timer = setTimeout(() => fail(`did not announce itself within ${options.timeoutMs ?? 30_000} ms`), options.timeoutMs ?? 30_000)
    child.once('error', (error) => fail(`could not start: ${error.message}`))
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`))
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk)
      if (settled) return
      stdout += chunk.toString('utf8')
      for (const line of stdout.split('\n')) {
        const match = line.match(options.ready)
        if (!match) continue
        settled = true
        clearTimeout(timer)
        resolve({ process: child, announced: match, output: () => log, stop })
        return
      }
    })
  })
}
