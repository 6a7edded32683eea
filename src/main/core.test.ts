import { AppError } from '../shared/ipc/result'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { requests, type RequestChannel } from '../shared/ipc/contract'
import type { Result } from '../shared/ipc/result'
import { createCore, type Core } from './core'
import type { Sender } from './host/router'
import { APP_URL } from './host/sender-policy'
import { MemoryKeyStore } from './secrets/memory-key-store'
import type { SessionService } from './session/types'

const app: Sender = { transport: 'electron', frameUrl: APP_URL }

/** Payloads no request channel accepts: every input is a strict object. */
const MALFORMED: unknown[] = [42, 'text', [], true, { unexpected: 1 }]

let home: string
let core: Core
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-core-'))
  core = createCore({ sousHome: home, transport: 'electron', keyStore: new MemoryKeyStore({}), onWarning: () => {} })
})
afterEach(async () => {
  await core.dispose()
  await rm(home, { recursive: true, force: true })
})

function errorCode(result: Result<unknown>): string | undefined {
  return result.ok ? undefined : result.error.code
}

describe('router through the core', () => {
  it.each(Object.keys(requests) as RequestChannel[])('%s answers INVALID_INPUT to malformed payloads', async (channel) => {
    for (const payload of MALFORMED) {
      const result = await core.router.invoke(channel, payload, app)
      expect(errorCode(result), `${channel} ${JSON.stringify(payload)}`).toBe('INVALID_INPUT')
    }
  })

  it('refuses foreign and missing sender frames with FORBIDDEN', async () => {
    for (const frameUrl of [
      'https://evil.example/',
      'app://sous.evil/index.html',
      'app://evil/index.html',
      'file:///home/me/index.html',
      'not a url',
      undefined,
    ]) {
      const result = await core.router.invoke('app.info', {}, { transport: 'electron', frameUrl })
      expect(errorCode(result), String(frameUrl)).toBe('FORBIDDEN')
    }
    // The desktop core does not answer WebSocket senders at all.
    expect(errorCode(await core.router.invoke('app.info', {}, { transport: 'ws', origin: 'http://127.0.0.1:1' }))).toBe('FORBIDDEN')
    expect(await core.router.invoke('app.info', {}, app)).toMatchObject({ ok: true, value: { transport: 'electron' } })
  })

  it('answers UNKNOWN_CHANNEL for a channel not in the contract', async () => {
    expect(errorCode(await core.router.invoke('app.nope', {}, app))).toBe('UNKNOWN_CHANNEL')
  })
})

describe('project handlers', () => {
  it('opens an existing folder, remembers it, and refuses files, relative and missing paths', async () => {
    const folder = join(home, 'my-app')
    await mkdir(folder)
    const opened = await core.router.invoke('project.open', { path: folder }, app)
    expect(opened).toMatchObject({ ok: true, value: { path: folder, name: 'my-app' } })
    const recent = await core.router.invoke('project.recent', {}, app)
    expect(recent.ok && (recent.value as Array<{ path: string }>).map((p) => p.path)).toEqual([folder])

    await writeFile(join(home, 'file.txt'), 'x')
    expect(errorCode(await core.router.invoke('project.open', { path: join(home, 'file.txt') }, app))).toBe('INVALID_INPUT')
    expect(errorCode(await core.router.invoke('project.open', { path: 'relative/dir' }, app))).toBe('INVALID_INPUT')
    expect(errorCode(await core.router.invoke('project.open', { path: join(home, 'missing') }, app))).toBe('NOT_FOUND')
  })

  it('survives a corrupt recent-projects file', async () => {
    await writeFile(join(home, 'recent-projects.json'), '\u0000garbage')
    expect(await core.router.invoke('project.recent', {}, app)).toEqual({ ok: true, value: [] })
  })

  it('project.pick is UNAVAILABLE without a folder dialog, and uses it when given', async () => {
    expect(errorCode(await core.router.invoke('project.pick', {}, app))).toBe('UNAVAILABLE')
    const folder = join(home, 'picked')
    await mkdir(folder)
    const answers: Array<string | null> = [folder, null]
    const desktop = createCore({
      sousHome: home,
      transport: 'electron',
      keyStore: new MemoryKeyStore({}),
      pickFolder: async () => answers.shift() ?? null,
    })
    expect(await desktop.router.invoke('project.pick', {}, app)).toMatchObject({ ok: true, value: { path: folder } })
    expect(await desktop.router.invoke('project.pick', {}, app)).toEqual({ ok: true, value: null })
    await desktop.dispose()
  })
})

function summary(sessionId: string) {
  const now = new Date().toISOString()
  return { sessionId, projectPath: '/p', title: 't', createdAt: now, updatedAt: now, messageCount: 0 }
}

describe('settings and session handlers', () => {
  it('stores a key and reports only its status', async () => {
    expect(await core.router.invoke('settings.apiKeyStatus', {}, app)).toEqual({ ok: true, value: { present: false, source: 'none' } })
    expect(await core.router.invoke('settings.setApiKey', { key: ' sk-1 ' }, app)).toEqual({ ok: true, value: undefined })
    const status = await core.router.invoke('settings.apiKeyStatus', {}, app)
    expect(status).toMatchObject({ ok: true, value: { present: true, source: 'memory' } })
    expect(JSON.stringify(status)).not.toContain('sk-1')
  })

  it('session.* is UNAVAILABLE without a session service and delegates to one', async () => {
    expect(errorCode(await core.router.invoke('session.create', { projectPath: home }, app))).toBe('UNAVAILABLE')
    const calls: string[] = []
    let disposed = false
    const unused = async (): Promise<never> => {
      throw new AppError('UNAVAILABLE', 'not in this test')
    }
    const sessions: SessionService = {
      create: async (projectPath) => (calls.push(`create ${projectPath}`), { sessionId: 's1' }),
      prompt: async (id, text) => void calls.push(`prompt ${id} ${text}`),
      abort: async (id) => void calls.push(`abort ${id}`),
      dispose: async () => void (disposed = true),
      list: async () => [],
      resume: async (sessionId) => summary(sessionId),
      continueLatest: async () => summary('s1'),
      history: async () => {
        throw new AppError('NOT_FOUND', 'no history here')
      },
      rename: async () => undefined,
      delete: async () => undefined,
      setModel: unused,
      continueTurn: unused,
      resumePause: unused,
      setReasoning: unused,
      setMode: unused,
      autoDecisions: unused,
      askNextTime: unused,
      agentTree: unused,
      agentHistory: unused,
      stopAgentNode: unused,
      compact: unused,
      inspectContext: unused,
      peerStatus: unused,
      setPeerPolicy: unused,
      settlePeerMessage: unused,
    }
    const withAgent = createCore({ sousHome: home, transport: 'electron', keyStore: new MemoryKeyStore({}), sessions })
    expect(await withAgent.router.invoke('session.create', { projectPath: home }, app)).toEqual({ ok: true, value: { sessionId: 's1' } })
    await withAgent.router.invoke('session.prompt', { sessionId: 's1', text: 'hi' }, app)
    await withAgent.router.invoke('session.abort', { sessionId: 's1' }, app)
    expect(calls).toEqual([`create ${home}`, 'prompt s1 hi', 'abort s1'])
    await withAgent.dispose()
    expect(disposed).toBe(true)
  })
})
