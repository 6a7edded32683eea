import { spawn } from 'node:child_process'
import { mkdirSync, openSync, unlinkSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { sousHome } from '../main/base/paths'
import { createHostCore } from '../main/host-core'
import { createEventLog } from '../main/host/remote/event-log'
import type { Frame } from '../main/host/remote/frames'
import { createMcpTunnel } from '../main/host/remote/mcp-tunnel'
import { createModelTunnel } from '../main/host/remote/model-tunnel'
import { serveRemoteHost } from '../main/host/remote/stdio-host'
import { SOUS_VERSION } from '../main/host/version'
import { MemoryKeyStore } from '../main/secrets/memory-key-store'
import type { HostArgs } from './host-args'

/** How long a host without a client keeps its turns running (then ends them and exits). */
export const DEFAULT_GRACE_MS = 10 * 60_000

/** The folder of the host's socket and log: the user's alone. */
export function runFolder(env: NodeJS.ProcessEnv): string {
  const dir = join(sousHome(env), 'run')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

/** One long-lived host per way of running (who holds the key, who answers asks). */
export function socketPath(env: NodeJS.ProcessEnv, args: HostArgs): string {
  const answerer = args.unattended ? `unattended-${args.permissionMode ?? 'default'}` : 'interactive'
  return join(runFolder(env), `host-${args.model}-${answerer}.sock`)
}

/** Reads `SOUS_HOST_GRACE_MS`; a value that is not a non-negative integer is the default. */
export function graceMs(env: NodeJS.ProcessEnv): number {
  const text = env['SOUS_HOST_GRACE_MS']
  return text && /^\d+$/.test(text) ? Number(text) : DEFAULT_GRACE_MS
}

/**
 * `sous host --daemon` (started by the connector, never by hand): the core, kept up across
 * connections on a Unix socket under `$SOUS_HOME/run/` (0700). One client at a time — a new one
 * takes over. While no client is connected the turns keep running and their events are kept;
 * a client that reconnects within the grace period gets the ones it missed (`resumeAfter`), and
 * model requests retried meanwhile go out through it. After the grace period without a client,
 * every session ends (a running tool call is recorded as interrupted) and the process exits.
 */
export async function runHostDaemon(args: HostArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const path = socketPath(env, args)
  const log = (message: string): void => void process.stderr.write(`[sous host ${new Date().toISOString()}] ${message}\n`)
  let send: (frame: Frame) => boolean = () => false
  const tunnel = args.model === 'relay' ? createModelTunnel((frame) => send(frame)) : undefined
  // The client's `local` MCP servers: offered in its hello, reached through it.
  const mcpTunnel = createMcpTunnel((frame) => send(frame))
  const { core, runtime, dispose } = createHostCore({
    transport: 'stdio',
    home: sousHome(env),
    env,
    keyStore: new MemoryKeyStore(env),
    ...(tunnel && { modelRelay: { fetch: tunnel.fetch } }),
    tunnelledMcp: mcpTunnel,
    ...(args.unattended && { unattended: { ...(args.permissionMode && { permissionMode: args.permissionMode }) } }),
    log,
  })
  const events = createEventLog(core.events)
  // A client that reconnects offers its local servers again: the ones the drop ended start anew.
  mcpTunnel.onOffer(() => runtime.mcp.restartTunnelled())
  let current: Socket | undefined
  let timer: NodeJS.Timeout | undefined
  let finish!: () => void
  const finished = new Promise<void>((resolve) => (finish = resolve))
  const wait = (): void => {
    clearTimeout(timer)
    timer = setTimeout(finish, graceMs(env))
  }
  const server: Server = createServer((socket) => {
    clearTimeout(timer)
    current?.destroy()
    current = socket
    socket.on('error', () => socket.destroy())
    const connection = serveRemoteHost({ router: core.router, events, input: socket, output: socket, version: SOUS_VERSION, model: args.model, ...(tunnel && { tunnel }), mcpTunnel, log })
    send = connection.send
    void connection.done.then((reason) => {
      if (current !== socket) return
      current = undefined
      send = () => false
      log(`${reason}; keeping the sessions for ${Math.round(graceMs(env) / 1000)} s`)
      wait()
    })
  })
  if (!(await listen(server, path))) {
    await dispose()
    return 0 // another host got there first: the connector uses that one
  }
  log(`listening on ${path}`)
  wait()
  await finished
  log('no client came back within the grace period; ending the sessions')
  server.close()
  tryUnlink(path)
  events.dispose()
  await dispose()
  return 0
}

/**
 * `sous host --stdio`: connects this process's stdin/stdout to the long-lived host, starting it
 * when none runs. Returns when either side closes.
 */
export async function runHostConnector(args: HostArgs, daemonArgv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const path = socketPath(env, args)
  let socket = await tryConnect(path)
  if (!socket) {
    const logFile = openSync(join(runFolder(env), 'host.log'), 'a', 0o600)
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? '', 'host', '--daemon', ...daemonArgv], { detached: true, stdio: ['ignore', logFile, logFile], env })
    child.unref()
    // Up to 30 s: a cold Node start on a loaded machine is slow, and ssh waits for our hello anyway.
    for (let attempt = 0; attempt < 600 && !socket; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      socket = await tryConnect(path)
    }
    if (!socket) {
      process.stderr.write(`sous host: the host did not start; see ${join(runFolder(env), 'host.log')}\n`)
      return 1
    }
  }
  const connected = socket
  process.stdin.pipe(connected)
  connected.pipe(process.stdout)
  process.stdin.once('end', () => connected.end())
  await new Promise<void>((resolve) => {
    connected.once('close', () => resolve())
    connected.once('error', () => resolve())
  })
  return 0
}

function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => resolve(socket))
    socket.once('error', () => resolve(undefined))
  })
}

/** Listens on `path`, replacing a stale socket; false when a live host already listens there. */
async function listen(server: Server, path: string): Promise<boolean> {
  const alive = await tryConnect(path)
  if (alive) {
    alive.destroy()
    return false
  }
  tryUnlink(path)
  return new Promise((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(path, () => resolve(true))
  })
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone
  }
}
