import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../../test/model-server'
import { useModelServer } from '../../../../test/model-server/vitest'
import type { RequestOutput } from '../../../shared/ipc/contract'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../../base/event-hub'
import { NodePtyService } from '../../pty/node-pty-service'
import type { Message } from '../../services/model/types'
import { type SessionRuntime } from '../../runtime/runtime'
import { createTestRuntime } from '../../../../test/support/agents'
import { createRouter, type Handlers, type Router } from '../router'
import { taskHandlers } from './tasks'

// The task panel's channels against the real session runtime: the user's changes go through the
// session's own store (so they come out as task_update events), survive a restart, and reach the
// model with its next request.
const server = useModelServer()
const sender = { transport: 'internal' as const }

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let router: Router
let events: AgentEvent[]

function start(): void {
  hub = createEventHub()
  hub.subscribe((channel, payload) => {
    if (channel === 'agent.event') events.push(payload as AgentEvent)
  })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(base, 'sous-home'), userHome: join(base, 'home'), hub, pty })
  router = createRouter(taskHandlers({ userTasks: runtime.userTasks, planFile: runtime.planFile, sessions: runtime.sessions }) as Handlers, { isTrustedSender: () => true })
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-task-handlers-'))
  project = join(base, 'project')
  mkdirSync(project)
  events = []
  pty = new NodePtyService({ killGraceMs: 300 })
  start()
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

const call = (channel: Parameters<Router['invoke']>[0], input: unknown) => router.invoke(channel, input, sender)
/** The list as `tasks.list` answers it (the router's results are untyped). */
async function listTasks(sessionId: string): Promise<RequestOutput<'tasks.list'>['tasks']> {
  const listed = await call('tasks.list', { sessionId })
  if (!listed.ok) throw new Error(listed.error.message)
  return (listed.value as RequestOutput<'tasks.list'>).tasks
}
const updates = () => events.filter((event) => event.type === 'task_update')

describe('tasks.* handlers', () => {
  it('add, edit, complete, reorder and delete as the user, each a task_update event', async () => {
    const { sessionId } = await runtime.sessions.create(project)
    expect(await call('tasks.create', { sessionId, subject: 'Write the parser', description: 'Tokens first' })).toMatchObject({ ok: true, value: { id: '1', status: 'pending' } })
    await call('tasks.create', { sessionId, subject: 'Test it', activeForm: 'Testing it' })
    expect(await call('tasks.update', { sessionId, taskId: '1', status: 'completed', subject: 'Write the lexer' })).toMatchObject({ ok: true, value: { subject: 'Write the lexer', status: 'completed' } })
    expect(await call('tasks.move', { sessionId, taskId: '2', beforeId: '1' })).toEqual({ ok: true, value: undefined })
    expect(await call('tasks.list', { sessionId })).toMatchObject({ ok: true, value: { listId: sessionId, problems: [] } })
    expect((await listTasks(sessionId)).map((task) => task.subject)).toEqual(['Test it', 'Write the lexer'])
    expect(await call('tasks.delete', { sessionId, taskId: '1' })).toEqual({ ok: true, value: undefined })
    expect(updates().map((event) => event.type === 'task_update' && [event.actor, event.tasks.map((task) => task.id), event.deleted])).toEqual([
      ['user', ['1'], []],
      ['user', ['2'], []],
      ['user', ['1'], []],
      ['user', ['2'], []],
      ['user', [], ['1']],
    ])
  })

  it('says why a change is refused, and changes nothing', async () => {
    const { sessionId } = await runtime.sessions.create(project)
    await call('tasks.create', { sessionId, subject: 'One' })
    await call('tasks.create', { sessionId, subject: 'Two' })
    await runtime.userTasks(sessionId)!.update('2', { owner: 'main' })
    await call('tasks.update', { sessionId, taskId: '2', status: 'pending' })
    await call('tasks.update', { sessionId, taskId: '1', status: 'in_progress' })
    expect(await call('tasks.update', { sessionId, taskId: '2', status: 'in_progress' })).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: 'Task #2 is assigned (owner: main); pick another task.' } })
    expect(await call('tasks.update', { sessionId, taskId: '7', status: 'completed' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'No task #7.' } })
    expect(await call('tasks.move', { sessionId, taskId: '../1' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await call('tasks.create', { sessionId, subject: '   ' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await call('tasks.list', { sessionId: 'no-such-session' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect((await listTasks(sessionId)).map((task) => [task.id, task.status, task.owner])).toEqual([
      ['1', 'in_progress', 'user'],
      ['2', 'pending', 'main'],
    ])
  })

  it("the model sees the user's change with its next request, and the list survives a restart", async () => {
    server.setScenario([
      toolUseReply('TaskCreate', { subject: 'Agent task', description: 'from the model' }, { id: 'toolu_create' }),
      textReply('Noted.'),
      textReply('I see your task.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Plan the work')
    await call('tasks.create', { sessionId, subject: 'User task', description: 'added in the panel' })
    await call('tasks.update', { sessionId, taskId: '1', status: 'completed' })
    await runtime.sessions.run(sessionId, 'Go on')
    const sent = server.requests.at(-1)!.body['messages'] as Message[]
    const last = JSON.stringify(sent.at(-1))
    expect(last).toContain('The user changed your task list in the task panel: they added task #2 \\"User task\\": added in the panel.')
    expect(last).toContain('they edited task #1 \\"Agent task\\": marked it completed.')
    // Earlier messages are sent as they were.
    expect(JSON.stringify(sent.slice(0, -1))).not.toContain('task panel')
    expect(updates().map((event) => event.type === 'task_update' && event.actor)).toEqual(['main', 'user', 'user'])

    await runtime.dispose()
    start()
    // The panel of a restarted app asks for a session nobody has opened yet: it is resumed.
    expect((await listTasks(sessionId)).map((task) => [task.subject, task.status])).toEqual([
      ['Agent task', 'completed'],
      ['User task', 'pending'],
    ])
    expect(server.failures).toEqual([])
  })

  it('plan.read gives the saved plan, and NOT_FOUND before there is one', async () => {
    const { sessionId } = await runtime.sessions.create(project)
    expect(await call('plan.read', { sessionId })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    const file = runtime.planFile(sessionId)!
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '# Plan\n\n1. Do it\n')
    expect(await call('plan.read', { sessionId })).toEqual({ ok: true, value: { path: file, text: '# Plan\n\n1. Do it\n', truncated: false } })
    expect(await call('plan.read', { sessionId: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})
