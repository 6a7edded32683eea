import { describe, expect, it } from 'vitest'
import { relativeTime } from './relative-time'

describe('relativeTime', () => {
  const now = Date.parse('2026-03-10T12:00:00Z')
  it('says how long ago, then a date', () => {
    expect(relativeTime('2026-03-10T11:59:50Z', now)).toBe('just now')
    expect(relativeTime('2026-03-10T11:45:00Z', now)).toBe('15 min ago')
    expect(relativeTime('2026-03-10T09:00:00Z', now)).toBe('3 h ago')
    expect(relativeTime('2026-03-09T12:00:00Z', now)).toBe('yesterday')
    expect(relativeTime('2026-03-06T12:00:00Z', now)).toBe('4 days ago')
    expect(relativeTime('2026-01-02T12:00:00Z', now)).toBe('2026-01-02')
    expect(relativeTime('not a date', now)).toBe('')
  })
})
