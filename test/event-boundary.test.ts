import { describe, expect, it } from 'vitest'
import { createDesktopApi, type IpcLike } from '../src/preload/bridge'
import { withCheckedEvents, type MalformedEvent } from '../src/renderer/src/api/checked-events'
import { EVENT_CHANNEL } from '../src/shared/ipc/electron-channels'

/**
 * The Electron path of the renderer's event boundary: the preload's bridged api, wrapped the way
 * `api/index.ts` wraps `window.sous`. (The renderer may not import the preload, so this lives here;
 * the browser path is tested beside `checked-events.ts`.)
 */

/** `ipcRenderer` as the bridge sees it; payloads are structured-cloned as Electron does. */
class ClonedIpc implements IpcLike {
  private listener: ((event: unknown, ...args: unknown[]) => void) | undefined
  async invoke(): Promise<unknown> {
    return { ok: true, value: null }
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    expect(channel).toBe(EVENT_CHANNEL)
    this.listener = listener
  }
  push(channel: string, payload: unknown): void {
    this.listener?.({}, channel, structuredClone(payload))
  }
}

describe('the event boundary over the Electron preload', () => {
  it('delivers events that match the contract and drops malformed ones, held events included', async () => {
    const ipc = new ClonedIpc()
    const problems: MalformedEvent[] = []
    const api = withCheckedEvents(createDesktopApi(ipc, () => ''), (problem) => problems.push(problem))
    // Held until someone listens (the OS asked to open a folder during start-up).
    ipc.push('project.openRequested', { path: 42 })
    ipc.push('project.openRequested', { path: '/early' })
    const opened: unknown[] = []
    api.on('project.openRequested', (payload) => opened.push(payload))
    const ends: unknown[] = []
    api.on('agent.event', (event) => ends.push(event.type))
    ipc.push('agent.event', { sessionId: 's', agentId: 'main', type: 'turn_end', reason: 'exploded' })
    ipc.push('agent.event', { sessionId: 's', agentId: 'main', type: 'turn_end', reason: 'aborted' })
    // Each domain's schemas load on its first event; until then what arrived waits, in order.
    await api.settled()
    expect(opened).toEqual([{ path: '/early' }])
    expect(ends).toEqual(['turn_end'])
    expect(problems.map((problem) => [problem.channel, problem.issues.split(':')[0]])).toEqual([
      ['project.openRequested', 'path'],
      ['agent.event', 'reason'],
    ])
  })
})
