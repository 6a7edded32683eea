import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../core'
import { MemoryKeyStore } from '../../secrets/memory-key-store'
import { TranscriptWriter, transcriptPath } from '../../store/transcript'
import type { Sender } from '../router'
import { APP_URL } from '../sender-policy'

const app: Sender = { transport: 'electron', frameUrl: APP_URL }
let dir: string
let core: Core

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sous-ws-handlers-')))
  core = createCore({ sousHome: join(dir, 'home'), transport: 'electron', keyStore: new MemoryKeyStore({}) })
})
afterEach(async () => {
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

describe('workspace handlers through the router', () => {
  it('work without an agent: files, stored sessions, preferences', async () => {
    await writeFile(join(dir, 'a.txt'), 'hello')
    expect(await core.router.invoke('files.list', { root: dir }, app)).toMatchObject({
      ok: true,
      value: [{ name: 'a.txt', path: 'a.txt', kind: 'file' }],
    })
    expect(await core.router.invoke('files.read', { root: dir, path: 'a.txt' }, app)).toEqual({
      ok: true,
      value: { text: 'hello', binary: false, truncated: false },
    })

    const writer = TranscriptWriter.create(transcriptPath(join(dir, 'home'), dir, 's1'), {
      sessionId: 's1',
      projectPath: dir,
    })
    writer.appendEvent({
      type: 'turn_start',
      sessionId: 's1',
      agentId: 'main',
      turnId: 't',
      prompt: 'find the walrus',
    })
    expect(
      await core.router.invoke('session.search', { query: 'WALRUS', projectPath: dir }, app),
    ).toMatchObject({ ok: true, value: [{ summary: { sessionId: 's1' } }] })
    expect(await core.router.invoke('session.export', { sessionId: 's1' }, app)).toMatchObject({
      ok: true,
      value: { markdown: expect.stringContaining('find the walrus') },
    })
    expect(await core.router.invoke('session.changes', { sessionId: 's1' }, app)).toEqual({
      ok: true,
      value: [],
    })
    expect(await core.router.invoke('session.export', { sessionId: 'nope' }, app)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })

    expect(await core.router.invoke('settings.update', { fontSize: 16 }, app)).toEqual({
      ok: true,
      value: { theme: 'system', fontSize: 16 },
    })
    expect(await core.router.invoke('settings.get', {}, app)).toEqual({
      ok: true,
      value: { theme: 'system', fontSize: 16 },
    })
  })

  it('never turns a session id into a path that leaves the sessions folder', async () => {
    const home = join(dir, 'home')
    // A real session (so a sessions folder exists to climb out of) and a transcript-shaped file two levels up.
    TranscriptWriter.create(transcriptPath(home, dir, 's1'), { sessionId: 's1', projectPath: dir })
    TranscriptWriter.create(join(home, 'projects', 'stolen.jsonl'), { sessionId: 'stolen', projectPath: dir }).appendEvent({
      type: 'turn_start',
      sessionId: 'stolen',
      agentId: 'main',
      turnId: 't',
      prompt: 'a secret that lives elsewhere',
    })
    for (const channel of ['session.export', 'session.changes', 'session.history'] as const) {
      for (const sessionId of ['../../stolen', '../../../projects/stolen', '..%2F..%2Fstolen', 's1/../../../stolen']) {
        const result = await core.router.invoke(channel, { sessionId }, app)
        expect(result, `${channel} ${sessionId}`).toMatchObject({ ok: false })
        expect(JSON.stringify(result)).not.toContain('a secret that lives elsewhere')
      }
    }
  })

  it('refuses bad input before any handler runs', async () => {
    expect(await core.router.invoke('files.list', { root: 'relative/path' }, app)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    })
    expect(await core.router.invoke('settings.update', { apiKey: 'sk-nope' }, app)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    })
    expect(await core.router.invoke('settings.update', { fontSize: 300 }, app)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    })
    expect(await core.router.invoke('session.search', { query: '   ' }, app)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    })
    expect(
      await core.router.invoke(
        'projectSettings.write',
        { projectPath: dir, name: '../evil.json', text: '{}' },
        app,
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    })
  })
})
