/**
 * Subagent figures: the overhead of starting one (from the main agent's Agent call running to the
 * subagent's first model request, median of 20, against the 20 ms target), how much of a fork's
 * first request the scripted server's cache simulation reads from the cache (target ≥ 90 %), and
 * the tree's cost per frame while 8 agents stream into a 200-node tree (the shared fold plus the
 * panel's row pass in Node, p95 against a 17 ms frame; React, style, layout and paint are not in
 * this figure — `agents-ui.bench.ts` measures the whole frame in Chromium). Prints figures;
 * asserts nothing.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startModelServer, textReply, toolUseReply, type RecordedRequest, type Step } from '../test/model-server'
import { createEventHub } from '../src/main/base/event-hub'
import { NodePtyService } from '../src/main/pty/node-pty-service'
import { createSessionRuntime } from '../src/main/runtime/runtime'
import type { Message } from '../src/main/services/model/types'
import type { AgentEvent } from '../src/shared/protocol/agent-event'
import { emptyTree, foldTree, type AgentTree } from '../src/shared/protocol/agent-tree'
import { visibleRows } from '../src/renderer/src/features/agents/rows'

const RUNS = 20

/** An event with the time the hub delivered it (events carry no clock of their own). */
type Stamped = AgentEvent & { benchAt: number }

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}

/** The first user message's text: which conversation a request belongs to. */
function firstText(request: RecordedRequest): string {
  const first = (request.body['messages'] as Message[])[0]!
  return typeof first.content === 'string' ? first.content : first.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
}

/** Answers each conversation from its own script, by a key its first or last user text holds. */
function route(scripts: Record<string, Step[]>): Step {
  const queues = new Map(Object.entries(scripts).map(([key, steps]) => [key, [...steps]]))
  return (request) => {
    const last = JSON.stringify((request.body['messages'] as Message[]).at(-1))
    // The last user message first (a fork's directive is there), then the first.
    const key = [...queues.keys()].find((candidate) => last.includes(candidate)) ?? [...queues.keys()].find((candidate) => firstText(request).includes(candidate))
    const queue = key === undefined ? undefined : queues.get(key)
    const step = queue?.shift()
    if (queue && step) {
      queue.push(step)
      return typeof step === 'function' ? step(request) : step
    }
    return textReply('Done.')
  }
}

async function withRuntime<T>(run: (context: { runtime: ReturnType<typeof createSessionRuntime>; project: string; events: Stamped[]; serverRequests: () => RecordedRequest[]; setScenario(steps: Step[]): void }) => Promise<T>): Promise<T> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'sous-bench-agents-')))
  const project = join(base, 'project')
  mkdirSync(project, { recursive: true })
  mkdirSync(join(base, 'user'), { recursive: true })
  writeFileSync(join(project, 'README.md'), '# Readme\n')
  const server = await startModelServer({ scenario: [textReply('hi')], loop: true })
  const hub = createEventHub()
  const events: Stamped[] = []
  // Each event stamped when the hub delivers it (the events carry no clock of their own).
  hub.subscribe((channel, payload) => channel === 'agent.event' && events.push(Object.assign({}, payload as AgentEvent, { benchAt: performance.now() })))
  const pty = new NodePtyService({ killGraceMs: 300 })
  const runtime = createSessionRuntime({ home: join(base, 'home'), env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'user') }, hub, pty, permissionMode: 'default', answerer: 'unattended', userHome: join(base, 'user') })
  try {
    return await run({ runtime, project, events, serverRequests: () => server.requests, setScenario: (steps) => server.setScenario(steps, { loop: true }) })
  } finally {
    await runtime.dispose()
    await pty.dispose()
    await server.close()
    rmSync(base, { recursive: true, force: true })
  }
}

async function startOverhead(): Promise<void> {
  await withRuntime(async ({ runtime, project, events, setScenario }) => {
    setScenario([route({ 'Start a helper.': [toolUseReply('Agent', { description: 'Help', prompt: 'HELPER: say hi.', subagent_type: 'Explore' }), textReply('ok')], 'HELPER:': [textReply('hi')] })])
    const { sessionId } = await runtime.sessions.create(project)
    const times: number[] = []
    for (let run = 0; run < RUNS + 3; run++) {
      const from = events.length
      await runtime.sessions.run(sessionId, 'Start a helper.')
      const mine = events.slice(from)
      const call = mine.find((event) => event.type === 'tool_state' && event.name === 'Agent' && event.state === 'running')
      const start = mine.find((event) => event.type === 'agent_start')
      const request = start && mine.find((event) => event.type === 'request_start' && event.agentId === start.agentId)
      if (!call || !request) throw new Error('the helper did not start')
      if (run >= 3) times.push(request.benchAt - call.benchAt)
    }
    const median = quantile(times, 0.5)
    console.log(`subagent start (Agent call running → its first model request), ${RUNS} runs: median ${median.toFixed(2)} ms, p90 ${quantile(times, 0.9).toFixed(2)} ms; target ≤ 20 ms: ${(median / 20).toFixed(2)}× the target`)
  })
}

async function forkCache(): Promise<void> {
  await withRuntime(async ({ runtime, project, serverRequests, setScenario }) => {
    setScenario([route({ 'Plan, then fork.': [toolUseReply('Agent', { description: 'Check', prompt: 'FORKED: check it.', subagent_type: 'fork' }, { text: 'Forking.' }), textReply('ok')], 'FORKED:': [textReply('checked')] })])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Plan, then fork.')
    const fork = serverRequests().find((request) => JSON.stringify(request.body['messages']).includes('FORKED:') && JSON.stringify((request.body['messages'] as Message[]).at(-1)).includes('FORKED:'))
    if (!fork) throw new Error('no fork request')
    const usage = fork.simulatedUsage
    const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
    const ratio = usage.cache_read_input_tokens / input
    console.log(`fork's first request: ${usage.cache_read_input_tokens} of ${input} input tokens read from the cache (${(ratio * 100).toFixed(1)} %); target ≥ 90 %: ${(ratio / 0.9).toFixed(2)}× the target`)
  })
}

function treeFrames(): void {
  // 8 running agents at the top, each with a subtree, to 200 nodes; then streaming frames.
  let tree: AgentTree = emptyTree('bench')
  const fold = (event: Record<string, unknown>) => (tree = foldTree(tree, { sessionId: 'bench', ...event } as AgentEvent))
  const agents: string[] = []
  for (let index = 0; index < 200; index++) {
    const id = `agent-${index.toString(16).padStart(16, '0')}`
    const parent = index < 8 ? 'main' : agents[index % 8]!
    fold({ type: 'agent_start', agentId: id, parentAgentId: parent, agentType: 'Explore', description: `Job ${index}`, prompt: 'p', model: 'm', background: false, at: 0 })
    agents.push(id)
  }
  const frames: number[] = []
  for (let frame = 0; frame < 600; frame++) {
    const started = performance.now()
    // One frame's events: each streaming agent sends text, and one in four a tool state or usage.
    for (let agent = 0; agent < 8; agent++) {
      const agentId = agents[agent]!
      for (let delta = 0; delta < 4; delta++) fold({ type: 'text_delta', agentId, text: 'x' })
      if ((frame + agent) % 4 === 0) fold({ type: 'tool_state', agentId, toolUseId: `tu-${frame}-${agent}`, name: 'Read', state: 'running', summary: `file-${frame}.ts` })
      if ((frame + agent) % 4 === 2) fold({ type: 'usage', agentId, model: 'm', request: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, total: { inputTokens: frame, outputTokens: frame, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: frame / 1e4 })
    }
    visibleRows(tree, new Set(), {})
    frames.push(performance.now() - started)
  }
  const p95 = quantile(frames, 0.95)
  console.log(`tree in Node, 8 agents streaming into ${Object.keys(tree.nodes).length} nodes: fold + rows per frame p95 ${p95.toFixed(3)} ms, max ${Math.max(...frames).toFixed(3)} ms; frame budget 17 ms: ${(p95 / 17).toFixed(3)}× it (paint not included)`)
}

export default async function bench(): Promise<void> {
  await startOverhead()
  await forkCache()
  treeFrames()
}
