import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RecordedRequest, Step } from '../../../../../test/model-server'
import { sandboxScratch } from '../../../../../test/support/sandbox-scratch'
import { useModelServer } from '../../../../../test/model-server/vitest'
import type { EventPayload } from '../../../../shared/ipc/contract'
import { createEventHub, type EventHub } from '../../../base/event-hub'
import { grantTrust, trustStatus } from '../../trust/trust'
import { NodePtyService } from '../../../pty/node-pty-service'
import type { Message, ToolResultBlock } from '../../../services/model/types'
import { UNATTRIBUTED } from './network-asks'
import { createSessionRuntime, type SessionRuntime } from '../../../runtime/runtime'

// Two sessions running sandboxed commands at once, with the real runtime, sandbox and model server:
// a network ask must reach the session whose command made the request, and only that one.
const server = useModelServer()

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let asked: Array<EventPayload<'approval.requested'>>

beforeEach(() => {
  base = sandboxScratch('.sous-network-asks-')
  project = join(base, 'project')
  const sousHome = join(base, 'sous-home')
  mkdirSync(join(project, '.claude'), { recursive: true })
  // A repository, as projects are: in a folder without .git, concurrent commands race on the
  // mount points the sandbox library makes for the absent .git it write-protects.
  execFileSync('git', ['init', '-q', project])
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }))
  expect(grantTrust(project, sousHome, trustStatus(project, sousHome).fingerprint).ok).toBe(true)
  hub = createEventHub()
  asked = []
  hub.subscribe((channel, payload) => {
    if (channel === 'approval.requested') asked.push(payload as EventPayload<'approval.requested'>)
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: sousHome,
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'home') },
    hub,
    pty,
    preferences: () => ({ autoMemory: false }),
    permissionMode: 'default',
    answerer: 'interactive',
    userHome: join(base, 'home'),
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** The model runs the command a prompt names (`RUN:<command>`), then says it is done. */
const runWhatIsAsked: Step = (request: RecordedRequest) => {
  const messages = request.body['messages'] as Message[]
  const last = messages.at(-1)!
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content
  if (blocks.some((block) => block.type === 'tool_result')) return { reply: { content: [{ type: 'text', text: 'done' }] } }
  const text = blocks.find((block) => block.type === 'text')?.text ?? ''
  const command = text.replace(/^RUN:/, '')
  return { reply: { content: [{ type: 'tool_use', id: `toolu_${request.index}`, name: 'Bash', input: { command } }] } }
}

function firstAsk(): Promise<EventPayload<'approval.requested'>> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((channel, payload) => {
      if (channel !== 'approval.requested') return
      stop()
      resolve(payload as EventPayload<'approval.requested'>)
    })
  })
}

function resultOf(sessionId: string): string {
  for (const request of [...server.requests].reverse()) {
    const messages = request.body['messages'] as Message[]
    const results = (messages.at(-1)?.content as ToolResultBlock[] | string | undefined) ?? []
    if (typeof results === 'string') continue
    const result = results.find((block) => block.type === 'tool_result')
    if (result && JSON.stringify(messages[0]).includes(sessionId)) return JSON.stringify(result)
  }
  return ''
}

const fetchCommand = (label: string) => `curl -s -m 15 -o /dev/null http://example.invalid/${label}; echo "curl=$?"`

describe('network asks with two sessions running commands at once', () => {
  it('reach the session whose command asked, and its allowance stays with it', async (t) => {
    server.setScenario(Array.from({ length: 12 }, () => runWhatIsAsked))
    const { sessionId: a } = await runtime.sessions.create(project)
    const { sessionId: b } = await runtime.sessions.create(project)

    // B holds a command open while A's command reaches for a new host.
    const first = firstAsk()
    const turns = Promise.all([runtime.sessions.run(b, `RUN:sleep 8 # ${b}`), runtime.sessions.run(a, `RUN:sleep 3; ${fetchCommand('a1')} # ${a}`)])
    const ask = await Promise.race([first, turns.then(() => undefined)])
    if (!ask && /sandbox unavailable|outside the sandbox/.test(resultOf(a))) return t.skip(`the OS sandbox is unavailable here (${resultOf(a).slice(0, 200)})`)
    expect(ask).toMatchObject({ sessionId: a, toolName: 'Bash', preview: { kind: 'url', domain: 'example.invalid' } })
    const queues = [...runtime.approvals.queues()]
    expect(queues.find((entry) => entry.sessionId === b)?.queue.pending()).toEqual([])
    queues.find((entry) => entry.sessionId === a)?.queue.resolve(ask!.id, { kind: 'allow_session' })
    await turns
    // The request itself could not wait (two sessions were running): it was refused, saying why.
    expect(resultOf(a)).toContain(UNATTRIBUTED)
    expect(asked.map((request) => request.sessionId)).toEqual([a])

    // A's allowance goes with A's commands only: B reaching the same host is asked about in B.
    const second = firstAsk()
    const again = Promise.all([runtime.sessions.run(a, `RUN:sleep 1; ${fetchCommand('a2')} # ${a}`), runtime.sessions.run(b, `RUN:sleep 4; ${fetchCommand('b1')} # ${b}`)])
    const askB = await Promise.race([second, again.then(() => undefined)])
    expect(askB).toMatchObject({ sessionId: b, preview: { domain: 'example.invalid' } })
    const queueB = [...runtime.approvals.queues()].find((entry) => entry.sessionId === b)?.queue
    queueB?.resolve(askB!.id, { kind: 'reject' })
    await again
    expect(asked.map((request) => request.sessionId)).toEqual([a, b])
    expect(resultOf(b)).toContain('user denied')
    expect(server.failures).toEqual([])
  }, 90_000)
})
