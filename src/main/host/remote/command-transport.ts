import { spawn } from 'node:child_process'
import { processPipe, shellQuote, stderrTail, withoutCredentials } from './process-pipe'
import type { OpenedPipe } from './reconnecting'

/** Options of {@link openCommandPipe}. */
export interface CommandPipeOptions {
  /** The user's command that reaches Sous there (`kubectl exec -i mypod -- sous`): Sous appends ` host --stdio …`. */
  command: string
  /** The name the user gave the remote (messages say it). */
  name: string
  /** Arguments after `host --stdio`. */
  hostArgs: readonly string[]
  /** The environment the command runs with; the model credentials are removed. */
  env: NodeJS.ProcessEnv
  onStderr?: (text: string) => void
  killAfterMs?: number
}

/**
 * The user-configured transport: `/bin/sh -c '<command> host --stdio …'` here, its stdin and
 * stdout the pipe. Anything that yields stdio to a Sous elsewhere fits — `kubectl exec -i`,
 * `docker exec -i`, `coder ssh`, a cloud sandbox's exec. The command is the user's own (typed in
 * the form, in user settings or on the command line, never read from a project), so it runs as
 * they wrote it, in a shell; only Sous's own arguments are appended, quoted.
 */
export function openCommandPipe(options: CommandPipeOptions): OpenedPipe {
  const line = [options.command.trim(), 'host', '--stdio', ...options.hostArgs.map(shellQuote)].join(' ')
  const child = spawn('/bin/sh', ['-c', line], { env: withoutCredentials(options.env), stdio: ['pipe', 'pipe', 'pipe'] })
  return processPipe(child, {
    explain: (end) => {
      const said = stderrTail(end.stderr) || '(nothing on stderr)'
      if (end.code === 127) return `the transport command of ${options.name} could not start Sous (\`${options.command}\`: not found, exit 127):\n${said}\nCheck the command, and that Sous is installed where it leads (npm i -g sous@<this version>).`
      return `the transport command of ${options.name} ended before the handshake (exit ${end.code ?? end.signal}):\n${said}`
    },
    ...(options.onStderr && { onStderr: options.onStderr }),
    ...(options.killAfterMs !== undefined && { killAfterMs: options.killAfterMs }),
  })
}
