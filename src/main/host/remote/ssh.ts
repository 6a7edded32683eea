import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { RemoteTransport } from '../../../shared/ipc/remote'
import { SOUS_VERSION } from '../version'
import { processPipe, stderrTail, withoutCredentials } from './process-pipe'
import type { OpenedPipe } from './reconnecting'

/** Where a remote project is: an ssh destination and an absolute folder there (and how to reach it: ssh by default). */
export interface RemoteTarget {
  /** As ssh takes it: `host`, `user@host`, an alias of ~/.ssh/config, `ssh://user@host:port`; with another transport, a name. */
  destination: string
  /** The project folder on that machine (absolute); in a dev container, the workspace folder on the machine that runs Docker. */
  folder: string
  /** The command that starts Sous there (default `sous`). */
  remoteSous?: string
  transport?: RemoteTransport
}

/**
 * Reads `<destination>:<absolute dir>` (`devbox:/srv/app`, `me@10.0.0.5:/home/me/app`). The folder
 * starts at the first `:/`; a destination that could pass for an ssh option (a leading `-`) or
 * holds whitespace or control characters is refused — it reaches ssh after `--`, but a clear
 * error beats ssh's. Pure.
 */
export function parseRemoteTarget(text: string): { ok: true; target: RemoteTarget } | { ok: false; message: string } {
  const at = text.indexOf(':/')
  if (at <= 0) return { ok: false, message: `--remote needs <destination>:<absolute dir> (e.g. devbox:/srv/app), not ${JSON.stringify(text)}` }
  const destination = text.slice(0, at)
  const folder = text.slice(at + 1)
  if (destination.startsWith('-') || /\s/.test(destination) || hasControl(destination)) return { ok: false, message: `not an ssh destination: ${JSON.stringify(destination)}` }
  if (hasControl(folder)) return { ok: false, message: 'the remote folder holds control characters' }
  return { ok: true, target: { destination, folder: folder.replace(/(.)\/+$/, '$1') } }
}

/**
 * Splits `SOUS_SSH` (`ssh -F ~/.ssh/alt -p 2222`) into words: single and double quotes group,
 * backslash escapes; no expansion. Pure. Empty or unset: `ssh`.
 */
export function sshCommand(text: string | undefined): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | "'" | undefined
  for (let i = 0; i < (text ?? '').length; i++) {
    const c = text![i]!
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"' && i + 1 < text!.length) word = (word ?? '') + text![++i]
      else word = (word ?? '') + c
    } else if (c === "'" || c === '"') {
      quote = c
      word ??= ''
    } else if (c === '\\' && i + 1 < text!.length) word = (word ?? '') + text![++i]
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words.length > 0 ? words : ['ssh']
}

/** Options of {@link spawnSshHost}. */
export interface SshHostOptions {
  target: RemoteTarget
  /** `SOUS_SSH`, as given. */
  ssh?: string
  /** The command that starts Sous there (`--remote-sous`); default `sous`. */
  remoteSous?: string
  /** Arguments after `host --stdio`. */
  hostArgs?: readonly string[]
  /** The environment ssh runs with: never the model credentials (a `SendEnv` must find none). */
  env: NodeJS.ProcessEnv
}

/**
 * Starts `ssh … -- <destination> <remote-sous> host --stdio …` with the system ssh, so the user's
 * config, ProxyJump, agent and known_hosts all apply. `BatchMode=yes`: ssh never prompts (there is
 * no terminal to answer on) — an unknown or changed host key, or a key that needs a passphrase
 * without an agent, fails with ssh's own message instead. Host-key checking is never loosened.
 */
export function spawnSshHost(options: SshHostOptions): { child: ChildProcessWithoutNullStreams; argv: string[] } {
  const [program, ...sshArgs] = sshCommand(options.ssh)
  const remote = [options.remoteSous?.trim() || 'sous', 'host', '--stdio', ...(options.hostArgs ?? [])].join(' ')
  const argv = [program!, ...sshArgs, '-T', '-o', 'BatchMode=yes', '--', options.target.destination, remote]
  const child = spawn(argv[0]!, argv.slice(1), { env: withoutCredentials(options.env), stdio: ['pipe', 'pipe', 'pipe'] })
  return { child, argv }
}

/**
 * One ssh run of `sous host --stdio` as a pipe for {@link connectReconnecting}; its failure is
 * explained from ssh's exit code and stderr ({@link explainSshFailure}).
 */
export function openSshPipe(options: SshHostOptions & { onStderr?: (text: string) => void; killAfterMs?: number }): OpenedPipe {
  const { child } = spawnSshHost(options)
  const remoteSous = options.remoteSous?.trim() || 'sous'
  return processPipe(child, {
    explain: (end) => explainSshFailure({ ...end, destination: options.target.destination, remoteSous, version: SOUS_VERSION }),
    ...(options.onStderr && { onStderr: options.onStderr }),
    ...(options.killAfterMs !== undefined && { killAfterMs: options.killAfterMs }),
  })
}

/** Why an ssh run ended before the remote Sous said hello, for people: ssh's message, its exit code, and the fix. */
export function explainSshFailure(o: { code: number | null; signal: string | null; stderr: string; destination: string; remoteSous: string; version: string }): string {
  const said = stderrTail(o.stderr)
  const fix = `Install it there with the same version as here: ssh ${o.destination} npm i -g sous@${o.version} (or pass --remote-sous with the command that starts it).`
  if (o.code === 127 || /command not found|No such file or directory|not found/i.test(said) && o.code !== 255) {
    return `Sous is not installed on ${o.destination} (\`${o.remoteSous}\` was not found, exit ${o.code}).\n${said}\n${fix}`
  }
  if (o.code === 255) return `ssh to ${o.destination} failed (exit 255):\n${said || '(ssh said nothing)'}`
  return `the remote Sous on ${o.destination} ended before the handshake (exit ${o.code ?? o.signal}):\n${said || '(nothing on stderr)'}`
}

function hasControl(text: string): boolean {
  return [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
}
