import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { requests, type EventPayload } from '../../shared/ipc/contract'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../base/event-hub'
import { approvalHandlers } from '../host/handlers/approval'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message, ToolResultBlock } from '../services/model/types'
import { createSessionRuntime, type SessionRuntime } from './runtime'

// Scheduled prompts as the desktop runs them: the real runtime, the real SDK against the scripted
// server, the Cron tools called by the model, the scheduler's one-second clock. The clock is moved
// (not faked): it runs in real time from a point 1.5 s before a minute boundary.
const server = useModelServer()

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let events: Array<{ event: AgentEvent; at: number }>
let offset = 0
const clock = () => Date.now() + offset

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-schedule-'))
  project = join(base, 'project')
  const userHome = join(base, 'home')
  mkdirSync(project)
  mkdirSync(userHome)
  hub = createEventHub()
  events = []
  offset = 0
  hub.subscribe((channel, payload) => {
    if (channel === 'agent.event') events.push({ event: payload as AgentEvent, at: clock() })
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: userHome },
    hub,
    pty,
    preferences: () => ({ autoMemory: false }),
    permissionMode: 'acceptEdits',
    answerer: 'interactive',
    userHome,
    sandbox: false,
    clock,
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

async function until<T>(find: () => T | undefined, ms = 8000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > end) throw new Error(`timed out; events: ${events.map((e) => e.event.type).join(', ')}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const turnEnds = () => events.filter((e) => e.event.type === 'turn_end' && e.event.agentId === 'main').length

/** The tool_result the model got in request `index`. */
function resultOf(index: number): { text: string; isError: boolean } {
  const messages = server.requests[index]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[])[0]!
  return { text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), isError: block.is_error === true }
}

/** Local-time cron fields that pin one minute. */
const pinned = (at: number): string => {
  const d = new Date(at)
  return `${d.getMinutes()} ${d.getHours()} ${d.getDate()} ${d.getMonth() + 1} *`
}

describe('scheduled prompts', () => {
  it('fires a one-shot prompt within a second of its time as a [Scheduled] turn, shown in the inbox', async () => {
    let fireAt = 0
    server.setScenario([
      () => {
        // From here on the clock reads 1.5 s before a minute boundary.
        fireAt = (Math.floor(Date.now() / 60_000) + 5) * 60_000
        offset = fireAt - 1500 - Date.now()
        return toolUseReply('CronCreate', { cron: pinned(fireAt), prompt: 'check the deploy', recurring: false })
      },
      textReply('Scheduled.'),
      (request) => {
        expect(JSON.stringify(request.body['messages'])).toContain('[Scheduled] check the deploy')
        return textReply('Deploy checked.')
      },
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.prompt(sessionId, 'remind me to check the deploy in a bit')
    await until(() => (turnEnds() === 1 ? true : undefined))
    expect(resultOf(1).text).toMatch(/^Scheduled one-shot task [0-9a-f]{8} \(.+ at \d\d:\d\d\)\. Session-only \(not written to disk, dies when the session ends\)\. Next run: .+\. It will fire once then auto-delete\.$/)
    const fired = await until(() => events.find((e) => e.event.type === 'scheduled_fire'))
    expect(fired.at - fireAt).toBeGreaterThanOrEqual(0)
    expect(fired.at - fireAt).toBeLessThan(1000)
    await until(() => (turnEnds() === 2 ? true : undefined))
    const started = events.filter((e) => e.event.type === 'turn_start').map((e) => (e.event.type === 'turn_start' ? e.event.prompt : ''))
    expect(started).toEqual(['remind me to check the deploy in a bit', '[Scheduled] check the deploy'])
    // What the attention inbox lists (state/inbox-model.test.ts folds this event into its entry).
    expect(fired.event).toMatchObject({ type: 'scheduled_fire', sessionId, agentId: 'main', prompt: 'check the deploy', cron: pinned(fireAt) })
    // A one-shot job is gone once it fired.
    server.setScenario([toolUseReply('CronList', {}), textReply('none')])
    await runtime.sessions.prompt(sessionId, 'list')
    await until(() => (turnEnds() === 3 ? true : undefined))
    expect(resultOf(4).text).toBe('No scheduled jobs.')
    expect(server.failures).toEqual([])
  })

  it('refuses an expression that does not parse, with the reason, and lists and cancels jobs', async () => {
    server.setScenario([
      toolUseReply('CronCreate', { cron: '61 * * * *', prompt: 'x' }),
      toolUseReply('CronCreate', { cron: 'every minute', prompt: 'x' }),
      toolUseReply('CronCreate', { cron: '*/5 * * * *', prompt: 'poll the queue' }),
      toolUseReply('CronList', {}),
      (request) => {
        const id = /Scheduled recurring job ([0-9a-f]{8})/.exec(JSON.stringify(request.body['messages']))![1]!
        return toolUseReply('CronDelete', { id })
      },
      toolUseReply('CronDelete', { id: 'nope' }),
      textReply('done'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.prompt(sessionId, 'schedule things')
    await until(() => (turnEnds() === 1 ? true : undefined))
    expect(resultOf(1)).toEqual({ isError: true, text: expect.stringContaining("Invalid cron expression '61 * * * *': Invalid value for minute: 61.") })
    expect(resultOf(2)).toEqual({ isError: true, text: expect.stringContaining("Invalid cron expression 'every minute'. Expected 5 fields: M H DoM Mon DoW.") })
    expect(resultOf(3).text).toMatch(/^Scheduled recurring job [0-9a-f]{8} \(Every 5 minutes\)\. Session-only .*Auto-expires after 7 days\. Use CronDelete to cancel sooner\.$/)
    expect(resultOf(4).text).toMatch(/^[0-9a-f]{8} — Every 5 minutes \(recurring\) \[session-only\], next run \d{4}-\d\d-\d\d \d\d:\d\d:00: poll the queue$/)
    expect(resultOf(5).text).toMatch(/^Cancelled job [0-9a-f]{8}\.$/)
    expect(resultOf(6)).toEqual({ isError: true, text: expect.stringContaining("No scheduled job with id 'nope'") })
    expect(server.failures).toEqual([])
  })

  it('asks the user before a schedule that fires more than once a minute, and refuses without a yes', async () => {
    const asked: EventPayload<'approval.requested'>[] = []
    hub.subscribe((channel, payload) => {
      if (channel !== 'approval.requested') return
      const request = payload as EventPayload<'approval.requested'>
      asked.push(request)
      const input = requests['approval.reply'].input.parse({ id: request.id, decision: asked.length === 1 ? 'reject' : 'allow_once' })
      void approvalHandlers(runtime.approvals)['approval.reply'](input, { sender: { transport: 'internal' } })
    })
    server.setScenario([toolUseReply('CronCreate', { cron: '*/10 * * * * *', prompt: 'spin' }), toolUseReply('CronCreate', { cron: '*/10 * * * * *', prompt: 'spin' }), textReply('ok')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.prompt(sessionId, 'every ten seconds')
    await until(() => (turnEnds() === 1 ? true : undefined))
    expect(asked.map((r) => r.toolName)).toEqual(['CronCreate', 'CronCreate'])
    expect(asked[0]!.preview).toEqual({ kind: 'text', text: "'*/10 * * * * *' fires more than once a minute: spin" })
    expect(resultOf(1)).toEqual({ isError: true, text: expect.stringContaining("CronCreate refused: '*/10 * * * * *' fires more than once a minute, and the user did not confirm it.") })
    expect(resultOf(2).text).toMatch(/^Scheduled recurring job [0-9a-f]{8} \(Every 10 seconds\)/)
  })

  it('lists the runs a durable job missed while the app was closed, and does not replay them', async () => {
    const now = Date.now()
    mkdirSync(join(project, '.claude'))
    const file = join(project, '.claude', 'scheduled_tasks.json')
    writeFileSync(file, JSON.stringify({ tasks: [{ id: 'abcd1234', cron: '7 * * * *', prompt: 'hourly check', createdAt: now - 3 * 3_600_000 - 60_000, recurring: true }] }))
    server.setScenario([])
    const { sessionId } = await runtime.sessions.create(project)
    const missed = await until(() => events.find((e) => e.event.type === 'scheduled_missed'))
    expect(missed.event).toMatchObject({ sessionId, jobId: 'abcd1234', prompt: 'hourly check' })
    expect(missed.event.type === 'scheduled_missed' && missed.event.runs.length).toBe(3)
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(events.some((e) => e.event.type === 'turn_start')).toBe(false)
    expect(server.requests.filter((r) => r.path.includes('messages'))).toEqual([])
    // Noted on disk, so the same runs are not listed again; the job stays.
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { tasks: Array<{ id: string; lastFiredAt?: number }> }
    expect(stored.tasks.map((t) => t.id)).toEqual(['abcd1234'])
    expect(stored.tasks[0]!.lastFiredAt).toBeGreaterThanOrEqual(now)
  })

  it('reports a damaged durable file and leaves it alone', async () => {
    mkdirSync(join(project, '.claude'))
    const file = join(project, '.claude', 'scheduled_tasks.json')
    writeFileSync(file, '{"tasks": [')
    server.setScenario([toolUseReply('CronCreate', { cron: '7 * * * *', prompt: 'x', durable: true }), textReply('ok')])
    const { sessionId } = await runtime.sessions.create(project)
    await until(() => events.find((e) => e.event.type === 'notice' && e.event.message.includes('is damaged')))
    await runtime.sessions.prompt(sessionId, 'keep this')
    await until(() => (turnEnds() === 1 ? true : undefined))
    expect(resultOf(1)).toEqual({ isError: true, text: expect.stringContaining('scheduled_tasks.json is damaged') })
    expect(readFileSync(file, 'utf8')).toBe('{"tasks": [')
  })
})
