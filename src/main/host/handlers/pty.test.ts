import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventPayload } from '../../../shared/ipc/contract'
import { createCore, type Core } from '../../core'
import { NodePtyService } from '../../pty/node-pty-service'
import { MemoryKeyStore } from '../../secrets/memory-key-store'
import { readChildEnvPolicy } from '../../workspace/preferences'
import type { Sender } from '../router'
import { APP_URL } from '../sender-policy'

const app: Sender = { transport: 'electron', frameUrl: APP_URL }
let dir: string
let core: Core
const realHome = process.env.HOME

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sous-pty-')))
  // The user's own shell start-up files must not decide whether the test passes.
  process.env.HOME = dir
  core = createCore({ sousHome: dir, transport: 'electron', keyStore: new MemoryKeyStore({}), pty: new NodePtyService({ killGraceMs: 200 }) })
})
afterEach(async () => {
  process.env.HOME = realHome
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** Collects a terminal's output until `predicate` holds. */
function outputUntil(id: string, predicate: (text: string) => boolean): Promise<string> {
  let text = ''
  return new Promise((resolve) => {
    const stop = core.events.subscribe((channel, payload) => {
      if (channel !== 'pty.data') return
      const data = payload as EventPayload<'pty.data'>
      if (data.id !== id) return
      text += data.data
      if (predicate(text)) {
        stop()
        resolve(text)
      }
    })
  })
}

describe('pty handlers', () => {
  it('lets a reloaded page take up a live shell: its recent output, then its input and output', async () => {
    const created = await core.router.invoke('pty.create', { cwd: dir, cols: 80, rows: 24 }, app)
    if (!created.ok) throw new Error(created.error.message)
    const { id } = created.value as { id: string }
    await outputUntil(id, (text) => text.length > 0)
    const said = outputUntil(id, (text) => text.includes('BEFORE-42'))
    await core.router.invoke('pty.write', { id, data: 'echo BEFORE-$((40+2))\r' }, app)
    await said
    // The old page never acknowledged anything; the new one draws what the shell said.
    const attached = await core.router.invoke('pty.attach', { id }, app)
    expect(attached.ok && (attached.value as { data: string }).data).toContain('BEFORE-42')
    const after = outputUntil(id, (text) => text.includes('AFTER-7'))
    await core.router.invoke('pty.write', { id, data: 'echo AFTER-$((3+4))\r' }, app)
    await after
    expect(await core.router.invoke('pty.attach', { id: 'gone' }, app)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('runs a real shell in the project folder, forwards output and the exit', async () => {
    const created = await core.router.invoke('pty.create', { cwd: dir, cols: 80, rows: 24 }, app)
    if (!created.ok) throw new Error(created.error.message)
    const { id } = created.value as { id: string }
    // Type only after the shell's first prompt: input sent before readline starts can be discarded.
    await outputUntil(id, (text) => text.length > 0)
    const exited = new Promise<EventPayload<'pty.exit'>>((resolve) => {
      core.events.subscribe((channel, payload) => {
        if (channel === 'pty.exit' && (payload as EventPayload<'pty.exit'>).id === id) resolve(payload as EventPayload<'pty.exit'>)
      })
    })
    const output = outputUntil(id, (text) => text.includes(`CWD=${dir}`))
    expect(await core.router.invoke('pty.write', { id, data: 'echo "CWD=$(pwd)"\r' }, app)).toEqual({ ok: true, value: undefined })
    await output
    expect((await core.router.invoke('pty.resize', { id, cols: 100, rows: 30 }, app)).ok).toBe(true)
    expect((await core.router.invoke('pty.ack', { id, chars: 10 }, app)).ok).toBe(true)
    await core.router.invoke('pty.write', { id, data: 'exit 3\r' }, app)
    expect(await exited).toMatchObject({ id, exitCode: 3 })
    // Gone: further calls answer NOT_FOUND.
    expect(await core.router.invoke('pty.write', { id, data: 'x' }, app)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it("gives a terminal no credentials: not Sous's key, not what the user marked, unless passed through", async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ sous: { secretEnv: ['*_TOKEN'], passEnv: ['PASS_TOKEN'] } }))
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-terminal-secret', MY_TOKEN: 'my-token-value', PASS_TOKEN: 'passed-value' }
    const guarded = createCore({ sousHome: dir, transport: 'electron', keyStore: new MemoryKeyStore({}), pty: new NodePtyService({ killGraceMs: 200, env, childEnv: () => readChildEnvPolicy(dir) }) })
    try {
      const created = await guarded.router.invoke('pty.create', { cwd: dir, cols: 200, rows: 24 }, app)
      if (!created.ok) throw new Error(created.error.message)
      const { id } = created.value as { id: string }
      let text = ''
      let prompted!: () => void
      const ready = new Promise<void>((resolve) => (prompted = resolve))
      const done = new Promise<void>((resolve) =>
        guarded.events.subscribe((channel, payload) => {
          const data = payload as EventPayload<'pty.data'>
          if (channel !== 'pty.data' || data.id !== id) return
          text += data.data
          prompted()
          if (text.includes('ENV-END')) resolve()
        }),
      )
      // Type only after the shell's first prompt (input sent earlier can be discarded).
      await ready
      await guarded.router.invoke('pty.write', { id, data: 'env; echo ENV-""END\r' }, app)
      await done
      expect(text).toContain('passed-value')
      expect(text).not.toContain('sk-ant-terminal-secret')
      expect(text).not.toContain('my-token-value')
    } finally {
      await guarded.dispose()
    }
  })

  it('refuses a missing folder and unknown ids', async () => {
    expect(await core.router.invoke('pty.create', { cwd: join(dir, 'nope'), cols: 80, rows: 24 }, app)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
    expect(await core.router.invoke('pty.kill', { id: 'nope' }, app)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('kills live terminals when the core is disposed', async () => {
    const created = await core.router.invoke('pty.create', { cwd: dir, cols: 80, rows: 24 }, app)
    if (!created.ok) throw new Error(created.error.message)
    const { id } = created.value as { id: string }
    const exited = new Promise<void>((resolve) => {
      core.events.subscribe((channel, payload) => {
        if (channel === 'pty.exit' && (payload as EventPayload<'pty.exit'>).id === id) resolve()
      })
    })
    await core.dispose()
    await exited
  })

  it('answers UNAVAILABLE without a PTY service', async () => {
    const bare = createCore({ sousHome: dir, transport: 'electron', keyStore: new MemoryKeyStore({}) })
    expect(await bare.router.invoke('pty.create', { cwd: dir, cols: 80, rows: 24 }, app)).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE' },
    })
    await bare.dispose()
  })
})
