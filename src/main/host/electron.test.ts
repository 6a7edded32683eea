import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { requests } from '../../shared/ipc/contract'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/ipc/electron-channels'
import { createCore, type Core } from '../core'
import { MemoryKeyStore } from '../secrets/memory-key-store'
import { attachElectronTransport, type EventTarget } from './electron'
import { APP_URL, isAllowedUrl } from './sender-policy'

type Handler = (event: { senderFrame: { url: string } | null }, channel: unknown, payload: unknown) => Promise<unknown>

/** The part of ipcMain the transport uses, recording the one handler it registers. */
class RecordingIpcMain {
  handlers = new Map<string, Handler>()
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`)
    this.handlers.set(channel, handler)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
}

let home: string
let core: Core
let ipc: RecordingIpcMain
let detach: () => void
const sent: Array<{ url: string; args: unknown[] }> = []
const targets: EventTarget[] = [APP_URL, 'https://evil.example/'].map((url) => ({
  isDestroyed: () => false,
  getURL: () => url,
  send: (...args: unknown[]) => void sent.push({ url, args }),
}))

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-electron-'))
  core = createCore({ sousHome: home, transport: 'electron', keyStore: new MemoryKeyStore({}) })
  ipc = new RecordingIpcMain()
  detach = attachElectronTransport({
    ipcMain: ipc as never,
    core,
    targets: () => targets,
    isTrustedUrl: (url) => isAllowedUrl(url, [APP_URL]),
  })
})
afterEach(async () => {
  detach()
  sent.length = 0
  await core.dispose()
  await rm(home, { recursive: true, force: true })
})

function invoke(frameUrl: string | null, channel: unknown, payload: unknown): Promise<unknown> {
  const handler = ipc.handlers.get(INVOKE_CHANNEL)
  if (!handler) throw new Error('no handler')
  return handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, channel, payload)
}

describe('electron transport', () => {
  it('registers one invoke channel and removes it on detach', () => {
    expect([...ipc.handlers.keys()]).toEqual([INVOKE_CHANNEL])
    detach()
    expect(ipc.handlers.size).toBe(0)
  })

  it('answers our app frame and refuses foreign or missing frames on every channel', async () => {
    expect(await invoke(APP_URL, 'app.info', {})).toMatchObject({ ok: true, value: { transport: 'electron' } })
    for (const channel of Object.keys(requests)) {
      for (const frameUrl of ['https://evil.example/', 'app://sous.evil/', null]) {
        expect(await invoke(frameUrl, channel, {}), `${channel} from ${frameUrl}`).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
      }
      expect(await invoke(APP_URL, channel, 42)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }
  })

  it('sends events only to windows showing our app', () => {
    core.events.emit('project.openRequested', { path: '/p' })
    expect(sent).toEqual([{ url: APP_URL, args: [EVENT_CHANNEL, 'project.openRequested', { path: '/p' }] }])
  })
})
