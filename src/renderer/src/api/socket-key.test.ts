import { describe, expect, it } from 'vitest'
import { fragmentWithoutKey, keyFromFragment } from './socket-key'

// Reading the socket key out of the redirect's fragment (the browser side is in
// e2e/serve-credentials.spec.ts, in real Chromium).
const key = 'a'.repeat(64)

describe('the socket key in the fragment', () => {
  it('is read only when well formed', () => {
    expect(keyFromFragment(`#sous-key=${key}`)).toBe(key)
    expect(keyFromFragment(`#x=1&sous-key=${key}`)).toBe(key)
    expect(keyFromFragment('')).toBeUndefined()
    expect(keyFromFragment('#sous-key=short')).toBeUndefined()
    expect(keyFromFragment(`#sous-key=${'A'.repeat(64)}`)).toBeUndefined()
    expect(keyFromFragment(`#sous-key=${key}x`)).toBeUndefined()
  })

  it('leaves the rest of the fragment when removed', () => {
    expect(fragmentWithoutKey(`#sous-key=${key}`)).toBe('')
    expect(fragmentWithoutKey(`#x=1&sous-key=${key}`)).toBe('#x=1')
    expect(fragmentWithoutKey('')).toBe('')
  })
})
