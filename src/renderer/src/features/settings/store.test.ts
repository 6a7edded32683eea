import { describe, expect, it } from 'vitest'
import { describeKey, isDark } from './describe'

describe('settings helpers', () => {
  it('resolves the theme against the system scheme', () => {
    expect(isDark('dark', false)).toBe(true)
    expect(isDark('light', true)).toBe(false)
    expect(isDark('system', true)).toBe(true)
    expect(isDark('system', false)).toBe(false)
  })

  it('describes the key by where it is, never by what it is', () => {
    expect(describeKey(null)).toBe('No API key set.')
    expect(describeKey({ present: false, source: 'none' })).toBe('No API key set.')
    expect(describeKey({ present: true, source: 'keychain' })).toContain('keychain')
    expect(describeKey({ present: true, source: 'memory' })).toContain('this run only')
  })
})
