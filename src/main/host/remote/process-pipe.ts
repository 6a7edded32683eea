import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import type { OpenedPipe } from './reconnecting'

/** How a transport's process ended: its exit code (127 when it could not start), signal and stderr's tail. */
export interface ProcessEnd {
  code: number | null
  signal: string | null
  stderr: string
}

/**
 * A transport's child process as a pipe for {@link connectReconnecting}: its stdout and stdin, and
 * its failure explained by `explain` from its exit and the last 8,000 characters of its stderr
 * (each chunk also handed to `onStderr`). `kill` ends stdin, which ends the host's input; with
 * `killAfterMs`, a process still running that long after is killed. Shared by every transport
 * (ssh, a dev container's exec, a user's command): they differ only in what they spawn and how
 * they explain a failure.
 */
export function processPipe(child: ChildProcessWithoutNullStreams, options: { explain(end: ProcessEnd): string; onStderr?: (text: string) => void; killAfterMs?: number }): OpenedPipe {
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    stderr = (stderr + text).slice(-8000)
    options.onStderr?.(text)
  })
  // A transport that died leaves stdin unwritable: the line channel sees the end, not an EPIPE crash.
  child.stdin.on('error', () => {})
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('error', (error) => {
      stderr += `\n${error.message}`
      resolve({ code: 127, signal: null })
    })
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  return {
    input: child.stdout,
    output: child.stdin,
    kill: () => {
      child.stdin.end()
      if (options.killAfterMs === undefined) return
      const timer = setTimeout(() => child.kill(), options.killAfterMs)
      void exited.then(() => clearTimeout(timer))
    },
    failure: async () => options.explain({ ...(await exited), stderr }),
  }
}

/** The last lines of a process's stderr, for a message. Pure. */
export function stderrTail(stderr: string, lines = 6): string {
  return stderr.trim().split('\n').slice(-lines).join('\n')
}

/** `env` without the model credentials: no transport process (ssh, docker, kubectl…) ever holds them. Pure. */
export function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env
  return rest
}

/** Quotes one word for a POSIX shell (`'…'`, a `'` as `'\''`). Pure. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
