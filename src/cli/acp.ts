import { Readable, Writable } from 'node:stream'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import { sousHome } from '../main/base/paths'
import { createHostCore } from '../main/host-core'
import { mcpConnectTimeoutMs } from '../main/services/mcp'
import { createAcpAgent } from '../main/host/acp/agent'
import { SOUS_VERSION } from '../main/host/version'
import { MemoryKeyStore } from '../main/secrets/memory-key-store'

const USAGE = 'Usage: sous acp    (an Agent Client Protocol agent on stdin/stdout, for Zed, JetBrains and other ACP editors)'

/**
 * `sous acp`: Sous's core (the one `sous serve` and the app run, with approvals asked
 * interactively) driven by an ACP client over this process's stdin/stdout. stdout carries ACP
 * messages only; everything else goes to stderr, which editors show as the agent's log. Runs until
 * the client closes the pipe, then ends every session, terminal and MCP server.
 *
 * The model key is found as everywhere in Sous (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`); the
 * client is never asked for it.
 */
export async function runAcp(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (argv.length > 0) {
    process.stderr.write(`sous acp: unknown option: ${argv[0]}\n${USAGE}\n`)
    return 2
  }
  // Anything of ours that prints must not corrupt the message stream.
  console.log = console.info = (...parts: unknown[]) => console.error(...parts)
  const log = (message: string): void => void process.stderr.write(`[sous acp] ${message}\n`)
  const keyStore = new MemoryKeyStore(env)
  // The editor's MCP servers, by project folder (the last session/new or session/load of that folder says).
  const clientServers = new Map<string, string>()
  const { core, runtime, dispose } = createHostCore({
    transport: 'stdio',
    home: sousHome(env),
    env,
    keyStore,
    mcpConfigsFor: (projectPath) => {
      const config = clientServers.get(projectPath)
      return config ? [config] : []
    },
    log,
  })
  const app = createAcpAgent({
    router: core.router,
    events: core.events,
    version: SOUS_VERSION,
    hasCredentials: async () => Boolean((await keyStore.get()) || env['ANTHROPIC_AUTH_TOKEN']),
    modeOf: (sessionId) => runtime.sessions.permissionMode(sessionId),
    setMcpConfig: (projectPath, config) => {
      if (config) clientServers.set(projectPath, config)
      else clientServers.delete(projectPath)
    },
    whenMcpReady: async (projectPath, names) => {
      await runtime.mcp.peek(projectPath)?.waitFor(names, mcpConnectTimeoutMs(env) + 2_000)
    },
    log,
  })
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>)
  const connection = app.connect(stream)
  await connection.closed.catch((error: unknown) => log(`the connection closed: ${String(error)}`))
  await dispose()
  return 0
}
