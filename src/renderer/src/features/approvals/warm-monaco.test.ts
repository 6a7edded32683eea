import { afterEach, describe, expect, it, vi } from 'vitest'

const listeners = new Set<(event: unknown) => void>()
const loadMonaco = vi.fn(() => Promise.resolve({}))
vi.mock('../../api', () => ({
  api: {
    on: (_channel: string, listener: (event: unknown) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  },
}))
vi.mock('../../lib/monaco', () => ({ loadMonaco: () => loadMonaco() }))

const { warmMonacoOnEdits } = await import('./warm-monaco')

const idle: Array<() => void> = []
vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run))
vi.stubGlobal('cancelIdleCallback', () => undefined)

const start = (name: string) => ({ sessionId: 's', agentId: 'main', type: 'tool_use_start', toolUseId: 't', name })
const push = (event: unknown) => [...listeners].forEach((listener) => listener(event))

afterEach(() => {
  listeners.clear()
  idle.length = 0
  loadMonaco.mockClear()
})

describe('warmMonacoOnEdits', () => {
  it('evaluates Monaco, in an idle callback, when an edit tool starts; then stops listening', async () => {
    warmMonacoOnEdits()
    push(start('Bash'))
    push({ sessionId: 's', agentId: 'main', type: 'text_delta', text: 'Write' })
    expect(idle).toHaveLength(0)
    push(start('Write'))
    push(start('Edit'))
    expect(idle).toHaveLength(1)
    expect(loadMonaco).not.toHaveBeenCalled()
    idle[0]!()
    expect(loadMonaco).toHaveBeenCalledTimes(1)
    await Promise.resolve()
    await Promise.resolve()
    expect(listeners.size).toBe(0)
  })

  it('tries again at the next edit when the load failed', async () => {
    loadMonaco.mockImplementationOnce(() => Promise.reject(new Error('gone')))
    warmMonacoOnEdits()
    push(start('MultiEdit'))
    idle[0]!()
    await Promise.resolve()
    await Promise.resolve()
    expect(listeners.size).toBe(1)
    push(start('NotebookEdit'))
    expect(idle).toHaveLength(2)
  })

  it('stops on request', () => {
    const stop = warmMonacoOnEdits()
    stop()
    expect(listeners.size).toBe(0)
  })
})
