import type { AgentEvent } from '../shared/protocol/agent-event'
import type { PrintIO } from './print'
import { parsePrintArgs, type PrintOptions } from './print-args'
import { SOUS_VERSION } from '../main/host/version'
import { connectReconnecting, type ReconnectingHost } from '../main/host/remote/reconnecting'
import { parseRemoteTarget, type RemoteTarget } from '../main/host/remote/ssh'
import { remoteTransport } from '../main/host/remote/transport'
import { createModelRelay } from '../main/services/model/relay'
import { MemoryKeyStore } from '../main/secrets/memory-key-store'
import { loadLocalMcpOffer } from '../main/host/remote/local-mcp-servers'
import { sousHome } from '../main/base/paths'
import { homedir } from 'node:os'

/** The flags `--remote` brings, taken out of the argument list before `sous -p` reads the rest. */
export interface RemoteFlags {
  target: RemoteTarget
  remoteSous: string
  /** `--remote-model own`: the remote sends model requests with its own key or gateway. */
  ownModelKey: boolean
}

/**
 * Takes `--remote`, `--devcontainer`, `--remote-command`, `--remote-sous` and `--remote-model` out
 * of `argv`. `--devcontainer <dir>` is a dev container of this machine's Docker,
 * `--devcontainer <destination>:<dir>` one of an ssh host's; `--remote-command <cmd>` reaches
 * `--remote <name>:<dir>` through the user's own command instead of ssh. Pure.
 */
export function takeRemoteFlags(argv: readonly string[]): { ok: true; flags: RemoteFlags | undefined; rest: string[] } | { ok: false; message: string } {
  const rest: string[] = []
  let target: string | undefined
  let devcontainer: string | undefined
  let command: string | undefined
  let remoteSous = 'sous'
  let ownModelKey = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = (): string | undefined => inline ?? argv[++i]
    if (flag === '--remote') target = value()
    else if (flag === '--devcontainer') devcontainer = value() ?? ''
    else if (flag === '--remote-command') command = value() ?? ''
    else if (flag === '--remote-sous') remoteSous = value() ?? ''
    else if (flag === '--remote-model') {
      const mode = value()
      if (mode !== 'own' && mode !== 'relay') return { ok: false, message: '--remote-model is `relay` (the default: the key stays here) or `own` (the remote uses its own key or gateway)' }
      ownModelKey = mode === 'own'
    } else rest.push(arg)
  }
  if (!remoteSous.trim()) return { ok: false, message: '--remote-sous needs the command that starts Sous on the remote' }
  if (command !== undefined && !command.trim()) return { ok: false, message: '--remote-command needs the command that reaches Sous there (e.g. "kubectl exec -i mypod -- sous")' }
  if (devcontainer !== undefined) {
    if (target !== undefined || command !== undefined) return { ok: false, message: '--devcontainer takes the place of --remote and --remote-command: --devcontainer <dir> (this machine) or --devcontainer <destination>:<dir> (an ssh host)' }
    if (devcontainer.startsWith('/')) return { ok: true, flags: { target: { destination: 'devcontainer', folder: devcontainer.replace(/(.)\/+$/, '$1'), transport: { kind: 'devcontainer', local: true } }, remoteSous, ownModelKey }, rest }
    const parsed = parseRemoteTarget(devcontainer)
    if (!parsed.ok) return { ok: false, message: `--devcontainer needs an absolute folder here or <destination>:<absolute dir>: ${parsed.message}` }
    return { ok: true, flags: { target: { ...parsed.target, transport: { kind: 'devcontainer' } }, remoteSous, ownModelKey }, rest }
  }
  if (target === undefined) return command === undefined ? { ok: true, flags: undefined, rest } : { ok: false, message: '--remote-command needs --remote <name>:<absolute dir> (the name is only shown)' }
  const parsed = parseRemoteTarget(target)
  if (!parsed.ok) return parsed
  if (command !== undefined) return { ok: true, flags: { target: { ...parsed.target, transport: { kind: 'command', command: command.trim() } }, remoteSous, ownModelKey }, rest }
  return { ok: true, flags: { target: parsed.target, remoteSous, ownModelKey }, rest }
}

/**
 * `sous -p --remote <destination>:<dir> "prompt"`: the same turn as `sous -p`, run by a Sous on
 * another machine over the system ssh (`sous host --stdio --unattended` there), through the
 * contract. Model requests come back over the pipe and are sent from here with the local key
 * (unless `--remote-model own`). Prints the answer as `-p` does (text or json). Returns the exit
 * code: ssh's own when the connection failed.
 */
export async function runRemotePrint(flags: RemoteFlags, argv: string[], env: NodeJS.ProcessEnv, io: PrintIO): Promise<number> {
  const parsed = parsePrintArgs(argv)
  if (parsed.ok === 'help') return 0
  if (!parsed.ok) return fail(io, `sous: ${parsed.error}`, 2)
  const options = { ...parsed.options, prompt: [parsed.options.prompt, io.stdin ?? ''].map((part) => part.trim()).filter(Boolean).join('\n\n') }
  if (!options.prompt) return fail(io, 'sous: no prompt: pass it as an argument or on stdin', 2)
  const unsupported = unsupportedWithRemote(options)
  if (unsupported) return fail(io, `sous: ${unsupported} is not available with --remote yet`, 2)

  const hostArgs = ['--unattended', ...(options.permissionModeGiven ? ['--permission-mode', options.permissionMode] : []), ...(flags.ownModelKey ? ['--own-model-key'] : [])]
  const relay = flags.ownModelKey ? undefined : createModelRelay({ env, keyStore: new MemoryKeyStore(env) })
  const transport = remoteTransport(
    { ...flags.target, remoteSous: flags.remoteSous },
    { env, hostArgs, killAfterMs: 3000, ...(options.verbose && { onStderr: (text: string) => void io.stderr.write(text) }) },
  )
  let markRestarted!: () => void
  const restarted = new Promise<void>((resolve) => (markRestarted = resolve))
  const prepared = await transport.prepare()
  if (!prepared.ok) return fail(io, `sous: ${prepared.message}`, prepared.code)
  const local = loadLocalMcpOffer({ sousHome: sousHome(env), userHome: env['HOME'] ?? homedir(), env })
  for (const problem of local.problems) io.stderr.write(`sous: warning: ${problem}\n`)
  const connected = await connectReconnecting({
    open: () => transport.open(),
    version: SOUS_VERSION,
    ...(relay && { relay }),
    ...(local.offer && { localMcp: local.offer }),
    onProblem: (message) => io.stderr.write(`sous: warning: ${message}\n`),
    onState: (state) => {
      if (state.state === 'reconnecting') io.stderr.write(`sous: the connection to ${flags.target.destination} dropped (${firstLine(state.reason)}); reconnecting in ${state.delayMs / 1000} s (attempt ${state.attempt})\n`)
      if (state.state === 'connected') io.stderr.write(`sous: reconnected to ${flags.target.destination}\n`)
      if (state.state === 'connected' && state.restarted) markRestarted()
    },
  })
  if (!connected.ok) {
    const code = Number(/exit (\d+)/.exec(connected.message)?.[1] ?? 1)
    const there = (flags.target.transport?.kind ?? 'ssh') === 'ssh' ? `ssh ${flags.target.destination} ` : ''
    const fix = /does not match|cannot drive/.test(connected.message) ? `\nInstall the same version there: ${there}npm i -g sous@${SOUS_VERSION} (or update the local Sous).` : ''
    return fail(io, `sous: ${connected.message}${fix}`, code > 0 ? code : 1)
  }
  const host = connected.host
  try {
    return await runTurn(host, { ...flags.target, folder: prepared.folder }, options, io, restarted)
  } finally {
    host.close()
    await host.lost
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? text
}

async function runTurn(client: ReconnectingHost, target: RemoteTarget, options: PrintOptions, io: PrintIO, restarted: Promise<void>): Promise<number> {
  // As the app opens a folder: it must exist there (and joins the remote's recent projects).
  const opened = await client.invoke('project.open', { path: target.folder })
  if (!opened.ok) return fail(io, `sous: ${target.destination}:${target.folder}: ${opened.error.message}`, 1)
  // --resume / --continue: the session is the remote's, found in its transcripts there.
  const created = options.resume
    ? await client.invoke('session.resume', { sessionId: options.resume })
    : options.continue
      ? await client.invoke('session.continue', { projectPath: opened.value.path })
      : await client.invoke('session.create', { projectPath: opened.value.path })
  if (!created.ok) return fail(io, `sous: ${target.destination}:${target.folder}: ${created.error.message}`, 1)
  const { sessionId } = created.value
  let reply = ''
  const ended = new Promise<Extract<AgentEvent, { type: 'turn_end' }>>((resolve) => {
    client.subscribe((channel, payload) => {
      if (channel !== 'agent.event') return
      const event = payload as AgentEvent
      if (event.sessionId !== sessionId || event.agentId !== 'main') return
      if (event.type === 'assistant_message') reply = event.text
      if (event.type === 'sandbox_unavailable') io.stderr.write(`sous: warning: the sandbox is unavailable on ${target.destination}: ${event.reason}\n`)
      if (event.type === 'turn_end') resolve(event)
    })
  })
  const lost = client.lost.then(() => undefined)
  const stop = (): void => void client.invoke('session.abort', { sessionId })
  io.signal?.addEventListener('abort', stop, { once: true })
  try {
    const sent = await client.invoke('session.prompt', { sessionId, text: options.prompt })
    if (!sent.ok) return fail(io, `sous: ${sent.error.message}`, 1)
    const end = await Promise.race([ended, lost, restarted.then(() => 'restarted' as const)])
    if (end === 'restarted') return fail(io, `sous: the host on ${target.destination} ended while the connection was down: the turn was interrupted (its transcript there has what happened; go on with --resume ${sessionId})`, 1)
    if (!end) return fail(io, `sous: the connection to ${target.destination} was lost during the turn (the remote keeps it running for its grace period; its transcript has what happened)`, 1)
    if (options.outputFormat === 'json') {
      io.stdout.write(`${JSON.stringify({ type: 'result', subtype: end.reason === 'completed' ? 'success' : 'error_during_execution', is_error: end.reason !== 'completed', result: reply, session_id: sessionId, terminal_reason: end.reason, remote: `${target.destination}:${target.folder}` }, null, 2)}\n`)
    } else io.stdout.write(reply.endsWith('\n') || reply === '' ? reply : `${reply}\n`)
    if (end.reason === 'completed') return 0
    io.stderr.write(`sous: the turn ended: ${end.reason}${end.message ? ` (${end.message})` : ''}\n`)
    return end.reason === 'aborted' ? 130 : 1
  } finally {
    io.signal?.removeEventListener('abort', stop)
  }
}

/** The `-p` options a remote run does not carry yet; undefined when all of them are plain. */
function unsupportedWithRemote(options: PrintOptions): string | undefined {
  if (options.outputFormat !== 'text' && options.outputFormat !== 'json') return `--output-format ${options.outputFormat}`
  if (options.inputFormat !== 'text') return '--input-format stream-json'
  if (options.forkSession) return '--fork-session'
  if (options.cwd) return '--cwd (the folder is the one after the destination)'
  if (options.mcpConfigs.length > 0) return '--mcp-config'
  if (options.coordinator) return '--coordinator'
  if (options.allowedTools.length > 0 || options.disallowedTools.length > 0) return '--allowedTools/--disallowedTools'
  if (options.settings !== undefined) return '--settings'
  return undefined
}

function fail(io: PrintIO, line: string, code: number): number {
  io.stderr.write(`${line}\n`)
  return code
}
