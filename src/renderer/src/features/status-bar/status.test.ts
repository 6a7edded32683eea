import { describe, expect, it } from 'vitest'
import { compactCount, contextWindowOf, highMark, lowMark, modeLabel, nextMode, statusFacts, type UsageHistory } from './status'

const usage = (input: number, cacheRead: number, output: number) => ({ inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: 0 })

describe('status facts', () => {
  it('reads the latest usage: context of the last request, session totals, cost and cache share', () => {
    const transcript: UsageHistory = {
      turns: [
        { usage: { model: 'claude-sonnet-4-5', request: usage(100, 0, 10), total: usage(100, 0, 10), costUsd: 0.01 } },
        { usage: { model: 'claude-sonnet-4-5', request: usage(50, 150, 20), total: usage(150, 150, 30), costUsd: 0.02 } },
        {},
      ],
    }
    expect(statusFacts(transcript)).toEqual({ model: 'claude-sonnet-4-5', contextUsed: 220, contextWindow: 200_000, totalTokens: 330, costUsd: 0.02, cacheReadShare: 0.5 })
    expect(statusFacts({ turns: [] })).toEqual({ contextUsed: 0, contextWindow: 200_000, totalTokens: 0, costUsd: 0 })
  })

  it('knows 1M windows, cycles modes like Claude Code and writes compact counts', () => {
    expect(contextWindowOf('claude-sonnet-4-5[1m]')).toBe(1_000_000)
    expect(['default', 'acceptEdits', 'plan', 'auto'].map((m) => nextMode(m as 'default'))).toEqual(['acceptEdits', 'plan', 'auto', 'default'])
    expect(nextMode('bypassPermissions')).toBe('default')
    // disableAutoMode: the cycle leaves auto out (and a session somehow in auto goes back to Manual).
    expect(['default', 'acceptEdits', 'plan', 'auto'].map((m) => nextMode(m as 'default', true))).toEqual(['acceptEdits', 'plan', 'default', 'default'])
    expect([modeLabel('default'), modeLabel('auto')]).toEqual(['Manual', 'Auto'])
    expect([999, 1234, 45_678, 2_500_000].map(compactCount)).toEqual(['999', '1.2k', '46k', '2.5M'])
  })

  it('prefers the session’s own count and window (a compaction, SOUS_CONTEXT_WINDOW) and colours the meter by the threshold', () => {
    const transcript: UsageHistory = {
      turns: [{ usage: { model: 'claude-sonnet-4-5', request: usage(100, 0, 10), total: usage(100, 0, 10), costUsd: 0.01 }, context: { tokens: 42, window: 50_000, autoCompactAt: 40_000 } }],
    }
    const facts = statusFacts(transcript)
    expect(facts).toMatchObject({ contextUsed: 42, contextWindow: 50_000, autoCompactAt: 40_000 })
    expect(highMark(facts)).toBe(0.8)
    expect(lowMark(facts)).toBeCloseTo(0.6)
    expect(statusFacts({ turns: [{ context: { tokens: 7, window: 1_000, autoCompactAt: 800 } }] })).toMatchObject({ contextUsed: 7, contextWindow: 1_000 })
  })
})
