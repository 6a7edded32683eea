import { describe, expect, it } from 'vitest'
import type { EventChannel, EventPayload } from '../../shared/ipc/contract'
import { checksPayloadsByDefault, createEventHub } from './event-hub'

/** A payload the type system would refuse, as a bug (or a cast) would produce at run time. */
const malformed = <C extends EventChannel>(payload: unknown): EventPayload<C> => payload as EventPayload<C>

describe('event hub', () => {
  it('checks payloads against the contract under vitest: a malformed emit throws and reaches no one', () => {
    expect(checksPayloadsByDefault()).toBe(true)
    const hub = createEventHub()
    const heard: unknown[] = []
    hub.subscribe((channel, payload) => heard.push([channel, payload]))
    hub.emit('pty.data', { id: 'p1', data: 'ok' })
    expect(() => hub.emit('pty.exit', malformed<'pty.exit'>({ id: 'p1', exitCode: 'zero' }))).toThrow(/pty\.exit event does not match the contract at exitCode/)
    expect(() => hub.emit('agent.event', malformed<'agent.event'>({ type: 'text_delta', sessionId: 's' }))).toThrow(/agent\.event/)
    expect(heard).toEqual([['pty.data', { id: 'p1', data: 'ok' }]])
  })

  it('checks nothing when told not to (the shipped app), and isolates a listener that throws', () => {
    const errors: unknown[] = []
    const hub = createEventHub({ checkPayloads: false, onListenerError: (error) => errors.push(error) })
    const heard: unknown[] = []
    hub.subscribe(() => {
      throw new Error('listener bug')
    })
    hub.subscribe((_channel, payload) => heard.push(payload))
    hub.emit('pty.exit', malformed<'pty.exit'>({ id: 'p1', exitCode: 'zero' }))
    expect(heard).toEqual([{ id: 'p1', exitCode: 'zero' }])
    expect(errors).toHaveLength(1)
    expect(checksPayloadsByDefault({})).toBe(false)
    expect(checksPayloadsByDefault({ SOUS_CHECK_EVENTS: '1' })).toBe(true)
  })
})
