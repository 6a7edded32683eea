import { describe, expect, it } from 'vitest'
import { turnSpend, usageBefore } from './usage'

const total = (inputTokens: number, outputTokens: number, cacheReadTokens = 0) => ({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0 })

describe('turn spend', () => {
  it("gives each turn its own share of the session's running totals, so the footers add up to the status bar", () => {
    const first = { total: total(100, 10), costUsd: 0.01 }
    const third = { total: total(250, 30, 80), costUsd: 0.025 }
    const turns = [{ usage: first }, {}, { usage: third }]
    const before = usageBefore(turns)
    expect(before).toEqual([undefined, first, first])
    expect(before[2]).toBe(first)
    expect(turnSpend(first, before[0])).toEqual({ ...total(100, 10), costUsd: 0.01 })
    const spend = turnSpend(third, before[2])
    expect(spend).toMatchObject({ inputTokens: 150, outputTokens: 20, cacheReadTokens: 80 })
    expect(spend.costUsd).toBeCloseTo(0.015)
  })
})
