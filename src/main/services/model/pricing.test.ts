import { describe, expect, it } from 'vitest'
import { costOf, priceOf } from './pricing'

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
})

describe('pricing', () => {
  it('matches dated ids to their family price', () => {
    expect(priceOf('claude-sonnet-4-5-20250929')).toEqual({ price: { input: 3, output: 15 } })
    expect(priceOf('claude-haiku-4-5-20251001').price).toEqual({ input: 1, output: 5 })
    expect(priceOf('claude-opus-4-1-20250805').price).toEqual({ input: 15, output: 75 })
    expect(priceOf('claude-opus-4-5').price).toEqual({ input: 5, output: 25 })
  })

  it('prices a million tokens of each kind', () => {
    expect(costOf('claude-sonnet-4-6', usage(1e6, 0)).costUsd).toBeCloseTo(3)
    expect(costOf('claude-sonnet-4-6', usage(0, 1e6)).costUsd).toBeCloseTo(15)
    expect(costOf('claude-sonnet-4-6', usage(0, 0, 1e6)).costUsd).toBeCloseTo(0.3)
    expect(costOf('claude-sonnet-4-6', usage(0, 0, 0, 1e6)).costUsd).toBeCloseTo(3.75)
    expect(costOf('claude-sonnet-4-6', usage(0, 0, 0, 1e6), { oneHourTokens: 1e6 }).costUsd).toBeCloseTo(6)
  })

  it('prices an unknown model as Sonnet and says so', () => {
    const result = costOf('gpt-imaginary', usage(1e6, 0))
    expect(result.costUsd).toBeCloseTo(3)
    expect(result.note).toContain('gpt-imaginary')
  })
})
