import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import type { PermissionMode } from '../governance/types'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message } from '../services/model/types'
import { createSessionRuntime, type SessionRuntime } from '../runtime/runtime'

// The reminders a session sends by the request (plan mode, a neglected task list, a turn ended
// with a task in progress), through the real runtime and the scripted model server: each arrives
// with the request it is due in, on the newest user message, and no earlier message is rewritten.
const server = useModelServer()

let base: string
let project: string
let pty: NodePtyService
let runtime: SessionRuntime

function start(permissionMode: PermissionMode): void {
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'home') },
    hub: createEventHub(),
    pty,
    permissionMode,
    answerer: 'interactive',
    userHome: join(base, 'home'),
    // These tests script every request; memory's side requests have their own tests (memory/agents).
    preferences: () => ({ autoMemory: false }),
  })
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-session-reminders-'))
  project = join(base, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'notes.txt'), 'notes\n')
  pty = new NodePtyService({ killGraceMs: 300 })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

function messages(request: number): Message[] {
  return server.requests[request]!.body['messages'] as Message[]
}

/** A message as the API saw it, minus the moving cache breakpoints. */
function bare(message: Message): unknown {
  return JSON.parse(JSON.stringify(message, (key, value: unknown) => (key === 'cache_control' ? undefined : value)))
}

/** The requests (0-based) whose newest message holds `text`. */
function carrying(text: string): number[] {
  return server.requests.flatMap((_, index) => (JSON.stringify(messages(index).at(-1)).includes(text) ? [index] : []))
}

/** Every request sends the previous request's messages unchanged, then new ones. */
function expectNothingRewritten(): void {
  for (let index = 1; index < server.requests.length; index++) {
    const before = messages(index - 1)
    expect(messages(index).slice(0, before.length).map(bare)).toEqual(before.map(bare))
  }
}

// Each read asks for another line, so the loop brake (five identical calls in a row) stays out of it.
const reads = (count: number) => Array.from({ length: count }, (_, index) => toolUseReply('Read', { file_path: join(project, 'notes.txt'), offset: index + 1 }, { id: `toolu_read_${index}` }))

describe('session reminders', () => {
  it('plan mode: told in full with the first request, briefly every 5 requests, and its end when the user switches it off', async () => {
    start('plan')
    server.setScenario([...reads(6), textReply('Still exploring.'), textReply('Understood.')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Plan a change')
    expect(carrying('Plan mode is active.')).toEqual([0])
    expect(carrying('Plan mode is still active')).toEqual([5])
    await runtime.sessions.setMode(sessionId, 'default')
    await runtime.sessions.run(sessionId, 'Go ahead')
    expect(carrying('Plan mode is over: the user switched it off (permission mode default')).toEqual([7])
    expect(JSON.stringify(messages(7))).toContain('Plan mode is still active')
    expectNothingRewritten()
    expect(server.failures).toEqual([])
  })

  it('tasks: a list left alone for 10 requests, and a turn ended with its own task in progress', async () => {
    start('default')
    server.setScenario([
      toolUseReply('TaskCreate', { subject: 'Write the parser', description: 'by hand' }, { id: 'toolu_create' }),
      toolUseReply('TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'main' }, { id: 'toolu_claim' }),
      ...reads(10),
      textReply('Parser half done.'),
      textReply('Carrying on.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Write a parser')
    // The last task tool ran before request 2; ten requests later the list is brought up.
    expect(carrying('You have not used the task tools for a while')).toEqual([12])
    expect(JSON.stringify(messages(12).at(-1))).toContain('#1 [in_progress] Write the parser (owner: main)')
    expect(carrying('Your last turn ended')).toEqual([])
    await runtime.sessions.run(sessionId, 'Go on')
    expect(carrying('Your last turn ended with task #1 \\"Write the parser\\" still in progress.')).toEqual([13])
    expectNothingRewritten()
    expect(server.failures).toEqual([])
  })
})
