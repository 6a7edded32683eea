/**
 * MCP figures (issue 17): printed, never asserted.
 *  1. Time from starting `sous -p` to the first model request, with no MCP server and with ten
 *     stdio servers of which one takes 5 s to start (target: no slower; the ratio is printed).
 *  2. MCP tool call overhead: a call through the tool layer (the `mcp__` adapter, the SDK client,
 *     the stdio pipe to a real server process and back) minus the time the server itself spent,
 *     median over many calls (target ≤ 5 ms).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fixtureEntry } from '../test/mcp/fixture'
import { startModelServer, textReply } from '../test/model-server'
import { McpServers } from '../src/main/services/mcp'
import { McpToolPool } from '../src/main/tools/mcp/mcp-pool'
import { runToolCall } from '../src/main/tools/run-tool'

const root = resolve(import.meta.dirname, '..')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN
const ms = (value: number) => `${value.toFixed(1)} ms`

export default async function bench(): Promise<void> {
  await firstRequest()
  await callOverhead()
}

/** 1. `sous -p` start → first request reaching the model, without and with ten servers (one slow). */
async function firstRequest(): Promise<void> {
  let firstAt = 0
  const server = await startModelServer({
    scenario: [
      () => {
        firstAt ||= performance.now()
        return textReply('hi')
      },
    ],
    loop: true,
  })
  const home = await mkdtemp(join(tmpdir(), 'sous-bench-mcp-'))
  const plain = await mkdtemp(join(tmpdir(), 'sous-bench-mcp-plain-'))
  const withServers = await mkdtemp(join(tmpdir(), 'sous-bench-mcp-servers-'))
  const servers: Record<string, unknown> = {}
  for (let index = 0; index < 10; index++) servers[`s${index}`] = fixtureEntry(index === 0 ? { FIXTURE_START_DELAY_MS: '5000' } : {})
  await writeFile(join(withServers, '.mcp.json'), JSON.stringify({ mcpServers: servers }))
  const built = join(root, 'out/main/cli.js')
  const command = existsSync(built) ? [process.execPath, built] : [process.execPath, '--import', 'tsx', join(root, 'src/cli/index.ts')]
  try {
    const time = async (cwd: string): Promise<number> => {
      firstAt = 0
      const started = performance.now()
      const code = await run([...command, '-p', '--cwd', cwd, 'hi'], { ...process.env, SOUS_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' })
      if (code !== 0 || !firstAt) throw new Error(`sous -p failed (exit ${code})`)
      return firstAt - started
    }
    const none: number[] = []
    const ten: number[] = []
    // Alternate the two so a busy machine weighs on both alike; the first pair warms caches.
    for (let round = 0; round < 12; round++) {
      none.push(await time(plain))
      ten.push(await time(withServers))
    }
    const [a, b] = [median(none.slice(1)), median(ten.slice(1))]
    console.log(`time to the first model request (sous -p, ${existsSync(built) ? 'built CLI' : 'tsx from source'}, median of 11 after a warm-up)`)
    console.log(`  no MCP server:                          ${ms(a)}`)
    console.log(`  10 stdio servers, one taking 5 s:       ${ms(b)}  → ratio ${(b / a).toFixed(2)} (target ≤ 1.00 plus noise; the slow server is never waited for)`)
  } finally {
    await server.close()
    await Promise.all([home, plain, withServers].map((dir) => rm(dir, { recursive: true, force: true })))
  }
}

/** 2. One MCP call's cost beyond the server's own work. */
async function callOverhead(): Promise<void> {
  const project = await mkdtemp(join(tmpdir(), 'sous-bench-mcp-call-'))
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }))
  const servers = new McpServers({ projectRoot: project, userHome: project, sousHome: project, env: { PATH: process.env['PATH'] }, trusted: () => true, projectApproval: 'all' })
  try {
    servers.start()
    await servers.waitFor(undefined, 30_000)
    const sleep = new McpToolPool(servers, { outputTokens: 25_000 }).tools().find((tool) => tool.name === 'mcp__fixture__sleep')
    if (!sleep) throw new Error('the fixture server did not connect')
    const context = { cwd: project, projectRoot: project, projectDataDir: project, sessionId: 'bench', agentId: 'main', toolUseId: 'bench', signal: new AbortController().signal, progress: () => {} }
    const overheads: number[] = []
    for (let call = 0; call < 330; call++) {
      const started = performance.now()
      const result = await runToolCall(sleep, { ms: 0 }, context)
      const total = performance.now() - started
      const serverMs = (result.details as { structuredContent?: { serverMs?: number } }).structuredContent?.serverMs ?? 0
      if (call >= 30) overheads.push(total - serverMs)
    }
    const value = median(overheads)
    console.log('MCP tool call overhead (tool layer → SDK client → stdio → fixture server → back, minus the server’s own time), 300 calls after 30 warm-up')
    console.log(`  median ${ms(value)}, p95 ${ms(percentile(overheads, 0.95))}  (target ≤ 5 ms: ${value <= 5 ? 'ok' : 'MISSED'})`)
  } finally {
    await servers.dispose()
    await rm(project, { recursive: true, force: true })
  }
}

function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('error', fail)
    child.on('exit', (code) => done(code))
  })
}
