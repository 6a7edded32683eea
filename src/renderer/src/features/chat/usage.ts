import type { Usage } from '../../../../shared/protocol/agent-event'

/** A turn's latest usage as the transcript keeps it: `total` and `costUsd` are the session's so far. */
export interface TurnUsage {
  total: Usage
  costUsd: number
}

/** What one turn spent: tokens and cost. */
export interface TurnSpend extends Usage {
  costUsd: number
}

/**
 * What one turn spent, from the one source every figure reads (the session's running totals in
 * the `usage` events): the turn's last total less the last total before it (`before`, see
 * {@link usageBefore}). The status bar shows the session's latest total, so the footers of a
 * conversation add up to it.
 */
export function turnSpend(usage: TurnUsage, before: TurnUsage | undefined): TurnSpend {
  return {
    inputTokens: usage.total.inputTokens - (before?.total.inputTokens ?? 0),
    outputTokens: usage.total.outputTokens - (before?.total.outputTokens ?? 0),
    cacheReadTokens: usage.total.cacheReadTokens - (before?.total.cacheReadTokens ?? 0),
    cacheWriteTokens: usage.total.cacheWriteTokens - (before?.total.cacheWriteTokens ?? 0),
    costUsd: usage.costUsd - (before?.costUsd ?? 0),
  }
}

/**
 * For each turn, the latest usage of the turns before it (the same objects the transcript holds,
 * so a memoised turn view sees an unchanged prop while later turns stream).
 */
export function usageBefore<U extends TurnUsage>(turns: ReadonlyArray<{ usage?: U }>): Array<U | undefined> {
  let before: U | undefined
  return turns.map((turn) => {
    const previous = before
    before = turn.usage ?? before
    return previous
  })
}
