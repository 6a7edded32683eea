import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SousApi } from '../../../shared/ipc/api'
import type { MalformedEvent } from './checked-events'

/**
 * The order of what reaches the renderer while a domain's schemas are still loading (they load on
 * its first event): a fake transport, and a fresh module graph per test so that no domain is loaded
 * at the start of one.
 */

interface FakeTransport extends SousApi {
  push(channel: string, payload: unknown): void
}

function fakeTransport(reply: Promise<unknown> = Promise.resolve({ ok: true, value: null })): FakeTransport {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  return {
    transport: 'browser',
    invoke: (() => reply) as unknown as SousApi['invoke'],
    on: ((channel: string, listener: (payload: unknown) => void) => {
      const set = listeners.get(channel) ?? new Set()
      listeners.set(channel, set.add(listener))
      return () => set.delete(listener)
    }) as SousApi['on'],
    push(channel, payload) {
      for (const listener of listeners.get(channel) ?? []) listener(payload)
    },
  }
}

afterEach(() => {
  vi.doUnmock('../../../shared/ipc/parallel')
  vi.resetModules()
})

const turnEnd = { sessionId: 's', agentId: 'main', type: 'turn_end', reason: 'completed' }

describe('withCheckedEvents while schemas load', () => {
  it('keeps arrival order across channels, and a reply waits for the events before it', async () => {
    vi.resetModules()
    const { withCheckedEvents } = await import('./checked-events')
    const { loadEventSchema } = await import('../../../shared/ipc/event-schemas')
    await loadEventSchema('pty.data')
    const transport = fakeTransport()
    const api = withCheckedEvents(transport, () => undefined)
    const seen: string[] = []
    api.on('agent.event', (event) => seen.push(`agent ${event.type}`))
    api.on('pty.data', (payload) => seen.push(`pty ${payload.data}`))
    transport.push('pty.data', { id: 'p', data: 'first' })
    // pty's schemas are in: delivered at once.
    expect(seen).toEqual(['pty first'])
    transport.push('agent.event', turnEnd)
    transport.push('pty.data', { id: 'p', data: 'after the agent event' })
    const reply = api.invoke('app.info', {}).then(() => seen.push('reply'))
    // The session domain is loading: the later pty event waits behind the agent event.
    expect(seen).toEqual(['pty first'])
    await reply
    expect(seen).toEqual(['pty first', 'agent turn_end', 'pty after the agent event', 'reply'])
  })

  it('does not hand a waiting event to a listener that unsubscribed meanwhile', async () => {
    vi.resetModules()
    const { withCheckedEvents } = await import('./checked-events')
    const transport = fakeTransport()
    const api = withCheckedEvents(transport, () => undefined)
    const kept: unknown[] = []
    const dropped: unknown[] = []
    api.on('agent.event', (event) => kept.push(event.type))
    const stop = api.on('agent.event', (event) => dropped.push(event.type))
    transport.push('agent.event', turnEnd)
    stop()
    await api.settled()
    expect(kept).toEqual(['turn_end'])
    expect(dropped).toEqual([])
  })

  it('drops and reports, never delivers unchecked, what waited for a domain that could not load; the next event tries again', async () => {
    vi.resetModules()
    vi.doMock('../../../shared/ipc/parallel', () => {
      throw new Error('chunk not found')
    })
    const { withCheckedEvents } = await import('./checked-events')
    const transport = fakeTransport()
    const problems: MalformedEvent[] = []
    const api = withCheckedEvents(transport, (problem) => problems.push(problem))
    const changed: unknown[] = []
    const ends: unknown[] = []
    api.on('parallel.changed', (payload) => changed.push(payload))
    api.on('parallel.changed', (payload) => changed.push(payload))
    api.on('agent.event', (event) => ends.push(event.type))
    transport.push('parallel.changed', { runId: 'r', projectPath: '/p' })
    transport.push('agent.event', turnEnd)
    await api.settled()
    expect(changed).toEqual([])
    expect(ends).toEqual(['turn_end'])
    expect(problems).toEqual([{ channel: 'parallel.changed', issues: expect.stringMatching(/^its schemas could not be loaded \(.+\); the event was dropped$/) }])
    vi.doUnmock('../../../shared/ipc/parallel')
    transport.push('parallel.changed', { runId: 'r2', projectPath: '/p' })
    await api.settled()
    expect(changed).toEqual([{ runId: 'r2', projectPath: '/p' }, { runId: 'r2', projectPath: '/p' }])
  })
})
