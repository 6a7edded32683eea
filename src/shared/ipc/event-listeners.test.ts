import { describe, expect, it } from 'vitest'
import { createEventListeners } from './event-listeners'

describe('event listeners', () => {
  it('delivers to each listener of a channel until it unsubscribes, and says whether anyone listened', () => {
    const listeners = createEventListeners()
    const heard: string[] = []
    const off = listeners.add('pty.data', (payload) => heard.push(`a:${String(payload)}`))
    listeners.add('pty.data', (payload) => heard.push(`b:${String(payload)}`))
    expect(listeners.dispatch('pty.data', 1)).toBe(true)
    off()
    listeners.dispatch('pty.data', 2)
    expect(listeners.dispatch('pty.exit', 3)).toBe(false)
    expect(heard).toEqual(['a:1', 'b:1', 'b:2'])
  })

  it('isolates a listener that throws, reporting it', () => {
    const failures: string[] = []
    const listeners = createEventListeners((channel, error) => failures.push(`${channel}: ${(error as Error).message}`))
    const heard: unknown[] = []
    listeners.add('agent.event', () => {
      throw new Error('boom')
    })
    listeners.add('agent.event', (payload) => heard.push(payload))
    listeners.dispatch('agent.event', 'x')
    expect(heard).toEqual(['x'])
    expect(failures).toEqual(['agent.event: boom'])
  })

  it('a listener that unsubscribes while being called does not skip the next one', () => {
    const listeners = createEventListeners()
    const heard: string[] = []
    const off = listeners.add('c', () => {
      heard.push('first')
      off()
    })
    listeners.add('c', () => heard.push('second'))
    listeners.dispatch('c', undefined)
    listeners.dispatch('c', undefined)
    expect(heard).toEqual(['first', 'second', 'second'])
  })
})
