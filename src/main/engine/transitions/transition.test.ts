import { describe, expect, it } from 'vitest'
import { finish, isReissue, proceed } from './transition'

describe('transitions', () => {
  it('only the recovery paths that repeat a request are re-issues (they do not count as turns)', () => {
    expect(['stream_retry', 'guard_retry', 'reactive_compact_retry'].map((reason) => isReissue(proceed(reason as 'stream_retry')))).toEqual([true, true, true])
    expect(['next_turn', 'max_tokens_recovery', 'stop_hook_blocking'].map((reason) => isReissue(proceed(reason as 'next_turn')))).toEqual([false, false, false])
    expect(isReissue(undefined)).toBe(false)
    expect(isReissue(finish('completed'))).toBe(false)
    expect(finish('aborted', 'Interrupted by the user.')).toEqual({ kind: 'end', reason: 'aborted', message: 'Interrupted by the user.' })
  })
})
