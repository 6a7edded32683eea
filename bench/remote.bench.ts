/**
 * What the SSH path adds (docs/guide/remote-projects.md): the same turns through the contract,
 * once against the core in this process (a local project) and once against a second Sous reached
 * through the system ssh and a throwaway sshd on 127.0.0.1 (`sous host --stdio`, the model relay
 * bringing every request back here). Loopback only, so the figures are the protocol's and ssh's
 * cost, not a network's: add your round-trip time per model request and per tool call.
 * - per tool call: a turn of N Read calls (each a model request and a tool run) minus a turn of
 *   none, divided by N;
 * - per streamed token: a reply of T deltas (4 characters each, about a token) minus a one-delta
 *   reply, divided by T.
 * Needs root and sshd (as the tests); says so and skips otherwise. Asserts nothing.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../test/model-server'
import { ROOT } from '../test/support/remote-host'
import { sandboxScratch } from '../test/support/sandbox-scratch'
import { sshdProblem, startTestSshd } from '../test/support/sshd'
import type { EventChannel, RequestChannel, RequestInput, RequestOutput } from '../src/shared/ipc/contract'
import type { Result } from '../src/shared/ipc/result'
import type { AgentEvent } from '../src/shared/protocol/agent-event'

const TOOL_CALLS = 20
const DELTAS = 2000
const SAMPLES = 5
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/** The contract as both sides offer it. */
interface Driver {
  invoke<C extends RequestChannel>(channel: C, payload: RequestInput<C>): Promise<Result<RequestOutput<C>>>
  subscribe(listener: (channel: EventChannel, payload: unknown) => void): () => void
}

export default async function bench(): Promise<void> {
  const problem = sshdProblem()
  if (problem) return void console.log(`skipped: ${problem}`)
  const work = sandboxScratch('.sous-remote-bench-')
  const project = join(work, 'project')
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'small.txt'), 'a small file\n')
  const server = await startModelServer({ scenario: [] })
  const sshd = await startTestSshd()
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: server.url, SOUS_HOME: join(work, 'local-home') }
  const { createHostCore } = await import('../src/main/host-core')
  const { MemoryKeyStore } = await import('../src/main/secrets/memory-key-store')
  const local = createHostCore({ transport: 'browser', home: env.SOUS_HOME, env, keyStore: new MemoryKeyStore(env), unattended: { permissionMode: 'bypassPermissions' }, log: () => {} })
  const localDriver: Driver = { invoke: (channel, payload) => local.core.router.invoke(channel, payload, { transport: 'internal' }) as never, subscribe: (listener) => local.core.events.subscribe(listener as never) }

  const { connectReconnecting } = await import('../src/main/host/remote/reconnecting')
  const { spawnSshHost } = await import('../src/main/host/remote/ssh')
  const { createModelRelay } = await import('../src/main/services/model/relay')
  const { SOUS_VERSION } = await import('../src/main/host/version')
  const remoteHome = join(work, 'remote-home')
  const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
  const remoteSous = `env HOME=${remoteHome} SOUS_HOME=${join(remoteHome, '.sous')} SOUS_HOST_GRACE_MS=5000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
  const connected = await connectReconnecting({
    version: SOUS_VERSION,
    relay: createModelRelay({ env }),
    open: () => {
      const { child } = spawnSshHost({ target: { destination: sshd.destination, folder: project }, ssh: sshd.sshCommand, remoteSous, hostArgs: ['--unattended', '--permission-mode', 'bypassPermissions'], env: { PATH: env.PATH } })
      return { input: child.stdout, output: child.stdin, kill: () => child.kill(), failure: async () => 'ssh failed' }
    },
  })
  if (!connected.ok) throw new Error(connected.message)
  const remote: Driver = { invoke: (channel, payload) => connected.host.invoke(channel, payload), subscribe: (listener) => connected.host.subscribe(listener as never) }

  try {
    const figures = { local: await measure(localDriver, server, project), ssh: await measure(remote, server, project) }
    for (const [name, f] of Object.entries(figures)) console.log(`${name}: turn with no tool ${f.empty.toFixed(1)} ms, per tool call ${f.perTool.toFixed(2)} ms, per streamed token ${(f.perToken * 1000).toFixed(1)} µs`)
    console.log(`added by the SSH path: ${(figures.ssh.empty - figures.local.empty).toFixed(1)} ms per turn, ${(figures.ssh.perTool - figures.local.perTool).toFixed(2)} ms per tool call, ${((figures.ssh.perToken - figures.local.perToken) * 1000).toFixed(1)} µs per streamed token (loopback; add the network's round trip per model request and per tool call)`)
  } finally {
    connected.host.close()
    await connected.host.lost
    await local.dispose()
    await sshd.close()
    await server.close()
    rmSync(work, { recursive: true, force: true })
  }
}

async function measure(driver: Driver, server: ModelServer, project: string): Promise<{ empty: number; perTool: number; perToken: number }> {
  const opened = await driver.invoke('project.open', { path: project })
  if (!opened.ok) throw new Error(opened.error.message)
  const created = await driver.invoke('session.create', { projectPath: opened.value.path })
  if (!created.ok) throw new Error(created.error.message)
  const sessionId = created.value.sessionId
  const turn = async (steps: ReturnType<typeof textReply>[]): Promise<number> => {
    server.setScenario(steps)
    const ended = new Promise<void>((resolve) => {
      const stop = driver.subscribe((channel, payload) => {
        const event = payload as AgentEvent
        if (channel === 'agent.event' && event.sessionId === sessionId && event.agentId === 'main' && event.type === 'turn_end') {
          stop()
          resolve()
        }
      })
    })
    // The session finishes its after-turn work shortly after turn_end: try again until it takes the prompt.
    let started = performance.now()
    for (let sent = await driver.invoke('session.prompt', { sessionId, text: 'go' }); !sent.ok; sent = await driver.invoke('session.prompt', { sessionId, text: 'go' })) {
      if (!/already running/.test(sent.error.message)) throw new Error(sent.error.message)
      await new Promise((resolve) => setTimeout(resolve, 5))
      started = performance.now()
    }
    await ended
    return performance.now() - started
  }
  const reads = Array.from({ length: TOOL_CALLS }, (_, i) => toolUseReply('Read', { file_path: join(project, 'small.txt') }, { id: `toolu_${i}` }))
  const long = textReply('abcd'.repeat(DELTAS), { chunkSize: 4 })
  await turn([textReply('warm up')])
  const empty: number[] = []
  const tools: number[] = []
  const tokens: number[] = []
  for (let sample = 0; sample < SAMPLES; sample++) {
    empty.push(await turn([textReply('ok')]))
    tools.push(await turn([...reads, textReply('ok')]))
    tokens.push(await turn([long]))
  }
  return { empty: median(empty), perTool: (median(tools) - median(empty)) / TOOL_CALLS, perToken: (median(tokens) - median(empty)) / DELTAS }
}
