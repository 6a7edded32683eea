import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionGrants } from '../../governance/decide/session'
import { TaskStore } from '../../store/tasks/task-store'
import { BubbledAsks } from './bubbled-asks'

let base: string | undefined
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true })
  base = undefined
})

describe("a teammate's asks", () => {
  it('are settled only by the lead, and only for the teammate that asked', async () => {
    const posted: Array<{ member: string; id: string }> = []
    const asks = new BubbledAsks({ attended: true, post: async (member, request) => void posted.push({ member, id: request.request_id }) })
    const asker = asks.askerFor('alice', new SessionGrants('/project'))
    const outcome = asker.request({ toolName: 'Bash', input: { command: 'make' }, explanation: { kind: 'default', detail: 'asks' } })
    await new Promise((resolve) => setImmediate(resolve))
    const id = posted[0]!.id
    const response = { type: 'permission_response' as const, request_id: id, subtype: 'success' as const }
    // Another teammate answering, or the lead answering for someone else: ignored.
    expect(asks.answer('alice', 'bob', response)).toBe(false)
    expect(asks.answer('bob', 'team-lead', response)).toBe(false)
    expect(asks.answer('alice', 'team-lead', response)).toBe(true)
    expect(await outcome).toMatchObject({ behavior: 'allow' })
    // Answered once: a second answer settles nothing.
    expect(asks.answer('alice', 'team-lead', response)).toBe(false)
  })

  it('settle as aborted when their signal aborts or the team ends', async () => {
    const asks = new BubbledAsks({ attended: true, post: async () => undefined })
    const controller = new AbortController()
    const asker = asks.askerFor('alice', new SessionGrants('/project'))
    const stopped = asker.request({ toolName: 'Bash', input: {}, explanation: { kind: 'default', detail: '' }, signal: controller.signal })
    const ended = asker.request({ toolName: 'Bash', input: {}, explanation: { kind: 'default', detail: '' } })
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    expect(await stopped).toMatchObject({ behavior: 'deny', reason: 'aborted' })
    asks.abortAll()
    expect(await ended).toMatchObject({ behavior: 'deny', reason: 'aborted' })
  })
})

describe('claimNext (an idle teammate taking a task)', () => {
  it('takes the first unowned, unblocked task, and nothing while the teammate holds an open one', async () => {
    base = mkdtempSync(join(tmpdir(), 'sous-claim-'))
    const store = new TaskStore(join(base, 'list'))
    for (const n of [1, 2, 3]) await store.create({ subject: `Part ${n}`, description: '' }, 'lead')
    await store.update('1', { owner: 'carol' }, 'lead')
    await store.update('3', { addBlockedBy: ['2'] }, 'lead')
    const first = await store.claimNext('alice')
    expect(first).toMatchObject({ id: '2', owner: 'alice', status: 'in_progress' })
    // alice holds #2: she gets nothing more until it is done; #3 is blocked by it anyway, #1 is carol's.
    expect(await store.claimNext('alice')).toBeUndefined()
    expect(await store.claimNext('bob')).toBeUndefined()
    await store.update('2', { status: 'completed' }, 'alice')
    expect(await store.claimNext('bob')).toMatchObject({ id: '3', owner: 'bob' })
  })
})
