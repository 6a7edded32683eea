import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { events as eventSchemas, requests, type EventChannel } from '../../../shared/ipc/contract'
import { AppError } from '../../../shared/ipc/result'
import { createEventHub } from '../../base/event-hub'
import { ApprovalQueue, type ApprovalOutcome } from '../../governance/approvals/queue'
import { SessionGrants } from '../../governance/decide/session'
import type { CallContext } from '../router'
import { ApprovalQueues } from '../../governance/approvals/registry'
import { approvalHandlers } from './approval'

let base: string
let project: string
let sousHome: string
let seen: Array<{ channel: EventChannel; payload: unknown }>
let registry: ApprovalQueues
let queue: ApprovalQueue
let stop: () => void

const call: CallContext = { sender: { transport: 'internal' } }

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-approval-'))
  project = join(base, 'project')
  sousHome = join(base, 'home')
  mkdirSync(project)
  mkdirSync(sousHome)
  const hub = createEventHub()
  seen = []
  // Every event must match the contract, as a transport would check it.
  hub.subscribe((channel, payload) => seen.push({ channel, payload: eventSchemas[channel].parse(payload) }))
  registry = new ApprovalQueues(hub)
  queue = new ApprovalQueue({ projectRoot: project, sousHome, sessionGrants: new SessionGrants(project) })
  stop = registry.add('s1', queue)
})

afterEach(() => {
  queue.dispose()
  stop()
  rmSync(base, { recursive: true, force: true })
})

function ask(command = 'npm test'): Promise<ApprovalOutcome> {
  return queue.request({
    sessionId: 's1',
    toolUseId: 'toolu_1',
    toolName: 'Bash',
    input: { command },
    preview: { kind: 'command', command, commands: [command], paths: [], sandboxed: true, problems: [] },
    explanation: { kind: 'default', detail: 'this command needs approval' },
    suggestions: ['Bash(npm test *)'],
  })
}

async function reply(input: unknown): Promise<void> {
  const parsed = requests['approval.reply'].input.parse(input)
  await approvalHandlers(registry)['approval.reply'](parsed, call)
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('expected an AppError')
}

describe('approval channels', () => {
  it('announces a request, lists it, and reports the answer', async () => {
    const outcome = ask()
    const requested = seen.find((e) => e.channel === 'approval.requested')?.payload as { id: string }
    expect(requested).toMatchObject({ sessionId: 's1', toolUseId: 'toolu_1', toolName: 'Bash', preview: { kind: 'command', sandboxed: true }, explanation: { kind: 'default', text: 'this command needs approval' }, suggestions: ['Bash(npm test *)'] })
    const list = approvalHandlers(registry)['approval.list']({}, call) as unknown[]
    expect(requests['approval.list'].output.parse(list)).toEqual([requested])
    expect(approvalHandlers(registry)['approval.list']({ sessionId: 'other' }, call)).toEqual([])
    await reply({ id: requested.id, decision: 'allow_once' })
    expect(await outcome).toMatchObject({ behavior: 'allow', scope: 'once' })
    expect(seen.at(-1)).toEqual({ channel: 'approval.resolved', payload: { id: requested.id, sessionId: 's1', outcome: 'allowed_once' } })
  })

  it('writes an edited "always" rule after checking that it parses', async () => {
    const outcome = ask()
    const { id } = queue.pending()[0]!
    const bad = await failure(reply({ id, decision: 'allow_always', rule: 'Bash(npm test' }))
    expect(bad.code).toBe('INVALID_INPUT')
    expect(existsSync(join(project, '.claude', 'settings.local.json'))).toBe(false)
    expect(queue.pending()).toHaveLength(1)
    await reply({ id, decision: 'allow_always', rule: 'Bash(npm run test:*)' })
    expect(await outcome).toMatchObject({ behavior: 'allow', scope: 'always' })
    expect(JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm run test:*)'] } })
    expect(seen.at(-1)?.payload).toMatchObject({ outcome: 'allowed_always', rules: ['Bash(npm run test:*)'] })
  })

  it('writes to the user settings when asked to', async () => {
    const outcome = ask()
    await reply({ id: queue.pending()[0]!.id, decision: 'allow_always', destination: 'user' })
    await outcome
    expect(JSON.parse(readFileSync(join(sousHome, 'settings.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test *)'] } })
  })

  it('says so when the rule could not be saved, and the call still runs once', async () => {
    mkdirSync(join(project, '.claude'))
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{ "permissions": ')
    const outcome = ask()
    const e = await failure(reply({ id: queue.pending()[0]!.id, decision: 'allow_always' }))
    expect(e.code).toBe('CONFLICT')
    expect(e.message).toMatch(/settings\.local\.json:1:\d+/)
    expect(await outcome).toMatchObject({ behavior: 'allow', scope: 'once' })
    expect(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')).toBe('{ "permissions": ')
  })

  it('passes a rejection message on and reports cancellations', async () => {
    const first = ask()
    await reply({ id: queue.pending()[0]!.id, decision: 'reject', message: 'run the unit tests only' })
    expect(await first).toMatchObject({ behavior: 'deny', reason: 'rejected', message: expect.stringContaining('run the unit tests only') })
    expect(seen.at(-1)?.payload).toMatchObject({ outcome: 'rejected' })
    const second = ask('make')
    queue.dispose()
    expect(await second).toMatchObject({ behavior: 'deny', reason: 'aborted' })
    expect(seen.at(-1)?.payload).toMatchObject({ outcome: 'aborted' })
  })

  it('answers NOT_FOUND for an unknown or already answered id', async () => {
    expect((await failure(reply({ id: 'nope', decision: 'allow_once' }))).code).toBe('NOT_FOUND')
    const outcome = ask()
    const { id } = queue.pending()[0]!
    await reply({ id, decision: 'allow_once' })
    await outcome
    expect((await failure(reply({ id, decision: 'allow_once' }))).code).toBe('NOT_FOUND')
  })

  it('approves a plan as edited, with the mode that follows, or sends it back with the feedback as written', async () => {
    const propose = (): Promise<ApprovalOutcome> =>
      queue.request({ sessionId: 's1', toolUseId: 'toolu_p', toolName: 'ExitPlanMode', input: { plan: 'a' }, preview: { kind: 'plan', plan: 'a', filePath: '/h/.claude/plans/s1.md' }, explanation: { kind: 'default', detail: 'the plan needs your approval' }, suggestions: [] })
    const first = propose()
    const requested = seen.find((e) => e.channel === 'approval.requested')?.payload
    expect(requested).toMatchObject({ toolName: 'ExitPlanMode', preview: { kind: 'plan', plan: 'a', filePath: '/h/.claude/plans/s1.md' } })
    const { id } = queue.pending()[0]!
    expect((await failure(reply({ id, decision: 'allow_session' }))).code).toBe('INVALID_INPUT')
    // A plan can only lead to acceptEdits or default: the contract refuses anything looser.
    expect(requests['approval.reply'].input.safeParse({ id, decision: 'allow_once', planMode: 'bypassPermissions' }).success).toBe(false)
    await reply({ id, decision: 'allow_once', plan: 'a, edited', planMode: 'acceptEdits' })
    expect(await first).toMatchObject({ behavior: 'allow', scope: 'once', plan: { text: 'a, edited', mode: 'acceptEdits' } })
    const second = propose()
    await reply({ id: queue.pending()[0]!.id, decision: 'reject', message: '  smaller steps  ' })
    expect(await second).toMatchObject({ behavior: 'deny', reason: 'rejected', feedback: 'smaller steps' })
  })

  it('refuses plan answers for an approval that is not a plan', async () => {
    const outcome = ask()
    const { id } = queue.pending()[0]!
    expect((await failure(reply({ id, decision: 'allow_once', plan: 'sneaky' }))).code).toBe('INVALID_INPUT')
    expect((await failure(reply({ id, decision: 'allow_once', planMode: 'acceptEdits' }))).code).toBe('INVALID_INPUT')
    await reply({ id, decision: 'allow_once' })
    expect(await outcome).toEqual({ behavior: 'allow', scope: 'once', rules: [] })
  })
})
