import { describe, expect, it } from 'vitest'
import { emptyTranscript, reduce } from './reducer'
import { describeRecovery } from './recovery'

const base = { sessionId: 's', agentId: 'main' }

describe('describeRecovery', () => {
  it('says nothing when the model behaved', () => {
    expect(describeRecovery({ end: { reason: 'completed' } })).toBeUndefined()
  })

  it('tells retries, fallback and the outcome, from the events', () => {
    let transcript = reduce(emptyTranscript, { ...base, type: 'turn_start', turnId: 't', prompt: 'hi' })
    transcript = reduce(transcript, { ...base, type: 'model_retry', attempt: 1, reason: 'overloaded_error', delayMs: 500 })
    transcript = reduce(transcript, { ...base, type: 'model_retry', attempt: 2, reason: 'overloaded_error', delayMs: 1000 })
    expect(describeRecovery(transcript.turns[0]!)).toBe('Sous retried 2 times…')
    transcript = reduce(transcript, { ...base, type: 'model_fallback', from: 'opus', to: 'sonnet', reason: 'overloaded' })
    const recovered = reduce(transcript, { ...base, type: 'turn_end', reason: 'completed' })
    expect(describeRecovery(recovered.turns[0]!)).toBe('Sous retried 2 times, fell back from opus to sonnet, and recovered.')
    const failed = reduce(transcript, { ...base, type: 'turn_end', reason: 'model_error', message: 'overloaded' })
    expect(describeRecovery(failed.turns[0]!)).toBe('Sous retried 2 times, fell back from opus to sonnet, then gave up.')
  })

  it('says a failure was not retried', () => {
    expect(describeRecovery({ end: { reason: 'model_error' } })).toBe('Sous gave up (the error cannot be fixed by retrying).')
  })
})
