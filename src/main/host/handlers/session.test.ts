import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEventHub } from '../../base/event-hub'
import { SessionManager } from '../../session/session-manager'
import { bareParts } from '../../../../test/support/sessions'
import { TranscriptWriter, transcriptPath } from '../../store/transcript'
import { createRouter, type Handlers } from '../router'
import { sessionHandlers } from './session'

let home: string
let manager: SessionManager
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-handlers-'))
  manager = new SessionManager({
    home,
    open: bareParts(() => ({
      hub: createEventHub(),
      model: () => Promise.reject(new Error('no model in this test')),
      modelName: 'none',
      toolset: async () => ({ tools: [] }),
      canUseTool: async () => ({ behavior: 'deny', message: 'no' }),
      maxTurns: 1,
    })),
  })
})
afterEach(async () => {
  await manager.dispose()
  await rm(home, { recursive: true, force: true })
})

describe('session handlers', () => {
  it('list, rename, history and delete through the router', async () => {
    const writer = TranscriptWriter.create(transcriptPath(home, '/p/app', 'abc'), { sessionId: 'abc', projectPath: '/p/app' })
    writer.appendMessage({ role: 'user', content: 'hello there' })
    // Only the session entries are under test; the others are the lead's.
    const router = createRouter(sessionHandlers({ sessions: manager }) as Handlers, { isTrustedSender: () => true })
    const sender = { transport: 'internal' as const }
    const listed = await router.invoke('session.list', { projectPath: '/p/app' }, sender)
    expect(listed).toMatchObject({ ok: true, value: [{ sessionId: 'abc', title: 'hello there' }] })
    expect(await router.invoke('session.rename', { sessionId: 'abc', title: '  ' }, sender)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await router.invoke('session.rename', { sessionId: 'abc', title: 'Greeting' }, sender)).toEqual({ ok: true, value: undefined })
    expect(await router.invoke('session.history', { sessionId: 'abc' }, sender)).toMatchObject({ ok: true, value: { summary: { title: 'Greeting' }, events: [] } })
    expect(await router.invoke('session.resume', { sessionId: 'nope' }, sender)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await router.invoke('session.delete', { sessionId: 'abc' }, sender)).toEqual({ ok: true, value: undefined })
    expect(await router.invoke('session.list', {}, sender)).toEqual({ ok: true, value: [] })
  })
})
