import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { emptyTree, foldTree } from '../../../shared/protocol/agent-tree'
import { formatTokens, formatUsd, sessionSpend, type SpendTurn } from './spend'

const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 })
const turn = (key: string, input: number, output: number, costUsd: number, calls: string[] = []): SpendTurn => ({
  key,
  usage: { total: usage(input, output), costUsd },
  blocks: calls.map((toolUseId) => ({ kind: 'tool', toolUseId })),
})

describe("the session's spend", () => {
  const tree = [
    { type: 'agent_start', agentId: 'agent-a', parentAgentId: 'main', parentToolUseId: 'call-a', agentType: 'Explore', description: 'a', prompt: 'a', model: 'm', background: false, at: 1 },
    { type: 'agent_start', agentId: 'agent-b', parentAgentId: 'agent-a', parentToolUseId: 'call-b', agentType: 'Explore', description: 'b', prompt: 'b', model: 'm', background: false, at: 2 },
    { type: 'usage', agentId: 'agent-b', model: 'm', request: usage(500, 100), total: usage(500, 100), costUsd: 0.25 },
    { type: 'agent_end', agentId: 'agent-a', status: 'completed', result: '', usage: usage(1000, 200), costUsd: 0.5, durationMs: 1, turns: 1, at: 3 },
  ].reduce((folded, event) => foldTree(folded, { sessionId: 's', ...event } as AgentEvent), emptyTree('s'))

  it('adds the subagents to the main agent, and counts each in the turn whose call started it', () => {
    // Turn 2 started agent-a (which started agent-b); the main agent's totals run across turns.
    const turns = [turn('t1', 1000, 100, 0.1), turn('t2', 3000, 300, 0.3, ['call-a'])]
    const spend = sessionSpend(turns, tree)
    expect(spend.total).toEqual({ tokens: 3300 + 1200 + 600, costUsd: 0.3 + 0.5 + 0.25 })
    expect(spend.agents).toEqual({ t2: { tokens: 1800, costUsd: 0.75 } })
  })

  it('counts only the main agent before the tree is loaded, and nothing before any request', () => {
    expect(sessionSpend([turn('t1', 1000, 100, 0.1)], null)).toEqual({ total: { tokens: 1100, costUsd: 0.1 }, agents: {} })
    expect(sessionSpend([], null).total).toEqual({ tokens: 0, costUsd: 0 })
  })

  it('puts a subagent whose call is not in the transcript on the last turn', () => {
    expect(sessionSpend([turn('t1', 10, 1, 0.01)], tree).agents).toEqual({ t1: { tokens: 1800, costUsd: 0.75 } })
  })

  it('is written one way wherever it is shown', () => {
    expect([formatUsd(0), formatUsd(0.0042), formatUsd(0.0512), formatUsd(12.5)]).toEqual(['$0.00', '$0.0042', '$0.05', '$12.50'])
    expect([formatTokens(950), formatTokens(9_999), formatTokens(10_400), formatTokens(1_250_000)]).toEqual(['950', '9,999', '10.4k', '1.25M'])
  })
})
