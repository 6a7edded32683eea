import { describe, expect, it } from 'vitest'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc/electron-channels'
import { createDesktopApi, type IpcLike } from './bridge'

class RecordingIpc implements IpcLike {
  calls: unknown[][] = []
  listener: ((event: unknown, ...args: unknown[]) => void) | undefined
  reply: unknown = { ok: true, value: { version: '1' } }
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.calls.push([channel, ...args])
    structuredClone(args) // Electron clones arguments the same way; a function throws.
    return this.reply
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    expect(channel).toBe(EVENT_CHANNEL)
    this.listener = listener
  }
  push(channel: string, payload: unknown): void {
    this.listener?.({}, channel, payload)
  }
}

describe('preload bridge', () => {
  it('exposes exactly the contract plus getPathForFile', () => {
    const api = createDesktopApi(new RecordingIpc(), () => '/p')
    expect(Object.keys(api).sort()).toEqual(['getPathForFile', 'invoke', 'on', 'transport'])
    expect(api.transport).toBe('electron')
  })

  it('invokes through the one channel and never rejects', async () => {
    const ipc = new RecordingIpc()
    const api = createDesktopApi(ipc, () => '')
    expect(await api.invoke('app.info', {})).toEqual({ ok: true, value: { version: '1' } })
    expect(ipc.calls).toEqual([[INVOKE_CHANNEL, 'app.info', {}]])
    const bad = await api.invoke('project.open', { path: (() => '') as unknown as string })
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  })

  it('routes events by channel, unsubscribes, and holds open requests until someone listens', () => {
    const ipc = new RecordingIpc()
    const api = createDesktopApi(ipc, () => '')
    ipc.push('project.openRequested', { path: '/early' })
    const data: unknown[] = []
    const stop = api.on('pty.data', (payload) => data.push(payload))
    ipc.push('pty.data', { id: '1', data: 'a' })
    stop()
    ipc.push('pty.data', { id: '1', data: 'b' })
    expect(data).toEqual([{ id: '1', data: 'a' }])
    const opens: unknown[] = []
    api.on('project.openRequested', (payload) => opens.push(payload))
    ipc.push('project.openRequested', { path: '/late' })
    expect(opens).toEqual([{ path: '/early' }, { path: '/late' }])
  })
})
