/**
 * Engine figures: `sous -p` cold start to exit, harness time per turn in a 30-turn session with a
 * 20 KB tool result per turn (model time subtracted), and prompt-cache reuse computed from the
 * requests the scripted server recorded. Prints figures and ratios; asserts nothing.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../test/model-server'
import { cacheFigures } from './cache-figures'
import { createEventHub } from '../src/main/base/event-hub'
import { scriptedModel, testTool } from '../test/support/engine'
import type { ModelService, ModelStreamEvent } from '../src/main/services/model/types'
import { SessionManager } from '../src/main/session/session-manager'
import { bareParts } from '../test/support/sessions'
import type { CanUseTool } from '../src/main/engine/types'
import { ApprovalQueue } from '../src/main/governance/approvals/queue'
import { UnattendedAnswerer } from '../src/main/governance/approvals/answerer'
import { DenialLog } from '../src/main/governance/approvals/denials'
import { SessionGrants } from '../src/main/governance/decide/session'
import { createPermissionGate } from '../src/main/governance/gate/gate'
import { HookRunner } from '../src/main/governance/hooks/runner'
import { grantTrust, trustStatus } from '../src/main/governance/trust/trust'

const root = resolve(import.meta.dirname, '..')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const ms = (value: number) => `${value.toFixed(1)} ms`

export default async function bench(): Promise<void> {
  const server = await startModelServer({ scenario: [textReply('hi')], loop: true })
  const home = await mkdtemp(join(tmpdir(), 'sous-bench-engine-'))
  try {
    await coldStart(server, home)
    await thirtyTurns(server, home, false)
    await thirtyTurns(server, home, true)
  } finally {
    await server.close()
    await rm(home, { recursive: true, force: true })
  }
}

/** 1. `sous -p hi` from spawn to exit, against a server that answers at once. */
async function coldStart(server: ModelServer, home: string): Promise<void> {
  const built = join(root, 'out/main/cli.js')
  const command = existsSync(built) ? ['node', built] : ['node', '--import', 'tsx', join(root, 'src/cli/index.ts')]
  const how = existsSync(built) ? 'built CLI (out/main/cli.js)' : 'tsx from source (no build found; includes on-the-fly TypeScript compilation)'
  const useTime = existsSync('/usr/bin/time')
  const walls: number[] = []
  const rss: number[] = []
  for (let run = 0; run < 8; run++) {
    const argv = useTime ? ['/usr/bin/time', '-f', 'maxrss=%M', ...command, '-p', 'hi'] : [...command, '-p', 'hi']
    const started = performance.now()
    const { code, stderr } = await exec(argv, { ...process.env, SOUS_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' })
    walls.push(performance.now() - started)
    if (code !== 0) throw new Error(`sous -p failed (${code}): ${stderr}`)
    const match = /maxrss=(\d+)/.exec(stderr)
    if (match) rss.push(Number(match[1]) / 1024)
  }
  console.log(`sous -p cold start to exit, ${how}`)
  console.log(`  median ${ms(median(walls.slice(1)))} over ${walls.length - 1} runs (first run discarded); target ≤ 300 ms → ${(median(walls.slice(1)) / 300).toFixed(2)}× target`)
  console.log(`  peak RSS ${rss.length ? `${median(rss).toFixed(1)} MB (median of runs)` : 'n/a (/usr/bin/time missing)'}`)
}

/**
 * 2 and 3. A 30-turn session, 20 KB tool result per turn. Governed: every call goes through a real
 * permission gate (the project's settings with 41 allow and 3 deny rules re-read by signature,
 * the hook runner, the unattended answerer), as in `sous -p`; target ≤ 2 ms a turn (issue 30).
 */
async function thirtyTurns(server: ModelServer, home: string, governed: boolean): Promise<void> {
  const project = await mkdtemp(join(tmpdir(), 'sous-bench-project-'))
  await writeFile(join(project, 'CLAUDE.md'), 'Use tabs.\n')
  const big = 'line of tool output that is forty chars\n'.repeat(512) // 20 KB
  const tool = testTool('Probe', { safe: true, run: async () => ({ content: big }) })
  const canUseTool = governed ? await realGate(project, home) : async () => ({ behavior: 'allow' as const })
  server.setScenario([...Array.from({ length: 30 }, (_, i) => toolUseReply('Probe', { value: String(i) })), textReply('done')])
  server.requests.length = 0
  const timed = new TimedModel(scriptedModel(server.url))
  const manager = new SessionManager({
    home,
    open: bareParts(() => ({
      hub: createEventHub(),
      model: async () => timed,
      modelName: 'claude-sonnet-4-6',
      toolset: async () => ({ tools: [tool] }),
      canUseTool,
      maxTurns: 40,
      homeDir: home,
    })),
  })
  try {
    const { sessionId } = await manager.create(project)
    const started = performance.now()
    const result = await manager.run(sessionId, 'Probe 30 times.')
    const wall = performance.now() - started
    if (result.reason !== 'completed' || server.failures.length > 0) throw new Error(`session failed: ${result.reason} ${JSON.stringify(server.failures)}`)
    const perTurn = timed.turnWalls.map((turnWall, index) => turnWall - (timed.waits[index] ?? 0))
    console.log(`30-turn session, 20 KB tool result per turn (${server.requests.length} requests, in-process), ${governed ? 'governance on (a real permission gate decides every call)' : 'no permission gate'}`)
    const perTurnMedian = median(perTurn)
    console.log(`  harness time per turn: median ${ms(perTurnMedian)} (wall per turn minus time awaiting the model service, which includes SDK + HTTP)${governed ? `; target ≤ 2 ms → ×${(perTurnMedian / 2).toFixed(2)}` : ''}`)
    console.log(`  whole session ${ms(wall)}, of which awaiting the model ${ms(timed.waits.reduce((a, b) => a + b, 0))}`)
    const cache = cacheFigures(server.requests)
    console.log(`  prompt cache reuse: ${cache.exactShare.toFixed(1)}% of the ${cache.alreadySent} prompt tokens an earlier request had sent were read at an exact breakpoint of an earlier request`)
    console.log(`  raw cache-read share of all input tokens: ${cache.readShare.toFixed(1)}% (${cache.read} of ${cache.all}, server simulation)`)
  } finally {
    await manager.dispose()
    await rm(project, { recursive: true, force: true })
  }
}

/** The gate `sous -p` builds for a trusted project (as bench/gate.bench.ts builds it), its canUseTool. */
async function realGate(project: string, home: string): Promise<CanUseTool> {
  await mkdir(join(project, '.claude'), { recursive: true })
  const rules = Array.from({ length: 40 }, (_, i) => `Bash(tool${i} run *)`)
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: [...rules, 'Probe'], deny: ['Bash(rm -rf *)', 'Read(./secrets/**)', 'Read(./.env)'] } }))
  grantTrust(project, home, trustStatus(project, home).fingerprint)
  const queue = new ApprovalQueue({ projectRoot: project, sousHome: home, sessionGrants: new SessionGrants(project) })
  const gate = createPermissionGate({ projectRoot: project, cwd: project, sousHome: home, home, managedPath: join(home, 'managed.json'), mode: 'default', approvals: new UnattendedAnswerer(queue.sessionGrants), hooks: new HookRunner({ hooks: [], sessionId: 'bench', projectRoot: project }), sessionId: 'bench', denials: new DenialLog() })
  return (tool, input, toolUseId) => gate.canUseTool(tool, input, toolUseId)
}

/** Wraps a model service to measure the time spent waiting on it, per request. */
class TimedModel implements ModelService {
  readonly waits: number[] = []
  readonly turnWalls: number[] = []
  private lastStart: number | undefined

  constructor(private readonly inner: ModelService) {}

  async *stream(request: Parameters<ModelService['stream']>[0]): AsyncGenerator<ModelStreamEvent> {
    const now = performance.now()
    if (this.lastStart !== undefined) this.turnWalls.push(now - this.lastStart)
    this.lastStart = now
    let waited = 0
    const iterator = this.inner.stream(request)[Symbol.asyncIterator]()
    try {
      for (;;) {
        const before = performance.now()
        const next = await iterator.next()
        waited += performance.now() - before
        if (next.done) break
        yield next.value
      }
    } finally {
      // The loop stops iterating at message_end, so record the wait here.
      this.waits.push(waited)
      await iterator.return?.()
    }
  }
}

function exec(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolveRun({ code: code ?? -1, stderr }))
  })
}
