import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_POLICY } from './config'
import { backoffDelay, classifyError, retryAfterOf } from './retry'

describe('backoffDelay', () => {
  it('doubles from the base up to the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, jitter: 0 }
    expect([0, 1, 2, 5, 6, 7, 40].map((n) => backoffDelay(n, policy))).toEqual([500, 1000, 2000, 16000, 32000, 32000, 32000])
  })

  it('shortens by at most the jitter fraction', () => {
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0)).toBe(4000)
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 1)).toBe(3000)
  })
})

describe('retryAfterOf', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500)
    expect(retryAfterOf(new Headers({ 'retry-after': '2.5' }))).toBe(2500)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterOf(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000)
    expect(retryAfterOf(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterOf(new Headers())).toBeUndefined()
  })
})

describe('classifyError', () => {
  it('treats an aborted signal as aborted whatever the error', () => {
    const controller = new AbortController()
    controller.abort()
    expect(classifyError(new Error('boom'), controller.signal)).toMatchObject({ reason: 'aborted', retryable: false })
  })

  it('recognises network failures and leaves other errors unknown and final', () => {
    expect(classifyError(new TypeError('terminated'))).toMatchObject({ reason: 'connection', retryable: true })
    expect(classifyError(new Error('bug'))).toMatchObject({ reason: 'unknown', retryable: false })
  })
})
