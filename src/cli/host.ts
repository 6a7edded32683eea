import { sousHome } from '../main/base/paths'
import { createHostCore } from '../main/host-core'
import { createMcpTunnel } from '../main/host/remote/mcp-tunnel'
import { createModelTunnel } from '../main/host/remote/model-tunnel'
import { serveRemoteHost } from '../main/host/remote/stdio-host'
import { createEventLog } from '../main/host/remote/event-log'
import type { Frame } from '../main/host/remote/frames'
import { SOUS_VERSION } from '../main/host/version'
import { MemoryKeyStore } from '../main/secrets/memory-key-store'
import { parseHostArgs } from './host-args'

/**
 * `sous host --stdio`: the main-process core without a window (in this process with
 * `--no-daemon`, else in the long-lived host this process connects to), driven by another Sous over this
 * process's stdin/stdout (remote/frames.ts). Runs until the client closes the pipe, then ends every
 * session and terminal. stdout carries frames only: every other line goes to stderr.
 *
 * With the default model relay the environment's model credentials are not used (the sealed copy
 * the CLI hands over has them removed here too): the model key is the client's.
 */
export async function runHost(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parseHostArgs(argv)
  if (!parsed.ok) {
    process.stderr.write(`sous host: ${parsed.message}\n`)
    return 2
  }
  const { args } = parsed
  const hostEnv = args.model === 'relay' ? withoutModelCredentials(env) : env
  if (args.mode === 'daemon' || args.mode === 'stdio') {
    const { runHostConnector, runHostDaemon } = await import('./host-daemon')
    if (args.mode === 'daemon') return runHostDaemon(args, hostEnv)
    return runHostConnector(args, argv.filter((arg) => arg !== '--stdio'), hostEnv)
  }
  // Anything of ours that prints must not corrupt the frame stream.
  console.log = console.info = (...parts: unknown[]) => console.error(...parts)
  const output = process.stdout
  let send: (frame: Frame) => boolean = () => false
  const tunnel = args.model === 'relay' ? createModelTunnel((frame) => send(frame)) : undefined
  // The client's `local` MCP servers: offered in its hello, reached through it.
  const mcpTunnel = createMcpTunnel((frame) => send(frame))
  const { core, runtime, dispose } = createHostCore({
    transport: 'stdio',
    home: sousHome(hostEnv),
    env: hostEnv,
    keyStore: new MemoryKeyStore(hostEnv),
    ...(tunnel && { modelRelay: { fetch: tunnel.fetch } }),
    tunnelledMcp: mcpTunnel,
    ...(args.unattended && { unattended: { ...(args.permissionMode && { permissionMode: args.permissionMode }) } }),
    log: (message) => process.stderr.write(`[sous host] ${message}\n`),
  })
  const events = createEventLog(core.events)
  // A client that reconnects offers its local servers again: the ones the drop ended start anew.
  mcpTunnel.onOffer(() => runtime.mcp.restartTunnelled())
  const connection = serveRemoteHost({
    router: core.router,
    events,
    input: process.stdin,
    output,
    version: SOUS_VERSION,
    model: args.model,
    ...(tunnel && { tunnel }),
    mcpTunnel,
    log: (message) => process.stderr.write(`[sous host] ${message}\n`),
  })
  send = connection.send
  const reason = await connection.done
  events.dispose()
  process.stderr.write(`sous host: ${reason}; stopping.\n`)
  await dispose()
  return reason.startsWith('The local Sous cannot') ? 3 : 0
}

function withoutModelCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env
  return rest
}
