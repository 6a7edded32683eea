import { describe, expect, it } from 'vitest'
import { events } from './contract'
import { loadEventSchema, loadedEventSchema } from './event-schemas'

describe('event schemas loaded per domain', () => {
  it('every event channel of the contract loads the very schema the contract holds', async () => {
    for (const channel of Object.keys(events) as Array<keyof typeof events>) {
      expect(await loadEventSchema(channel)).toBe(events[channel])
      expect(loadedEventSchema(channel)).toBe(events[channel])
    }
  })
})
