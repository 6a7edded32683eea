import { describe, expect, it } from 'vitest'
import { events } from './contract'
import { isEventChannel, loadEventSchema, loadedEventSchema } from './event-schemas'

describe('event schemas loaded per domain', () => {
  it('every event channel of the contract loads the very schema the contract holds', async () => {
    for (const channel of Object.keys(events) as Array<keyof typeof events>) {
      expect(isEventChannel(channel)).toBe(true)
      expect(await loadEventSchema(channel)).toBe(events[channel])
      expect(loadedEventSchema(channel)).toBe(events[channel])
    }
  })

  it('a name outside the contract is not an event channel', () => {
    for (const name of ['pty', 'agent.events', 'toString', '__proto__', 42, undefined]) expect(isEventChannel(name)).toBe(false)
  })
})
