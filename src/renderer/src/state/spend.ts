import { create } from 'zustand'
import { rollUp, ROOT, type AgentTree } from '../../../shared/protocol/agent-tree'
import type { Usage } from '../../../shared/protocol/agent-event'
import { groupDigits } from '../lib/group-digits'

/**
 * What the session on screen spent, from one source for every figure that shows it: the chat's
 * transcript (the main agent's running totals in its `usage` events) joined with the agent tree
 * (what each subagent spent). The per-turn footer, the status bar and the agent tree's total read
 * it and format it with {@link formatUsd} and {@link formatTokens}, so for the same turn they say
 * the same thing, and the footers add up to the status bar and the tree.
 */

/** Tokens (input, cache and output) and cost. */
export interface Spend {
  tokens: number
  costUsd: number
}

/** What this module reads of a conversation's turns (the chat's transcript fits). */
export interface SpendTurn {
  key: string
  /** The main agent's session totals after the turn's latest request. */
  usage?: { total: Usage; costUsd: number }
  blocks: ReadonlyArray<{ kind: string; toolUseId?: string }>
}

/** The session's spend: in total, and per turn what its subagents spent (keyed by turn key). */
export interface SessionSpend {
  total: Spend
  /** The subagents started in each turn (nested ones with them), by the turn's key. */
  agents: Readonly<Record<string, Spend>>
}

const NOTHING: Spend = { tokens: 0, costUsd: 0 }

/** Tokens of a usage record (input, cache reads and writes, output). */
export function tokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens
}

/**
 * The session's spend from its transcript and its agent tree (null: not loaded, no subagents
 * counted). A subagent counts in the turn whose Agent call started it (the last turn when the call
 * is not in the transcript), with everything below it. Pure.
 */
export function sessionSpend(turns: readonly SpendTurn[], tree: AgentTree | null): SessionSpend {
  const main = turns.findLast((turn) => turn.usage)?.usage
  let tokens = main ? tokensOf(main.total) : 0
  let costUsd = main?.costUsd ?? 0
  const agents: Record<string, Spend> = {}
  const root = tree?.nodes[ROOT]
  if (tree && root && root.children.length > 0) {
    const totals = rollUp(tree)
    const turnOfCall = new Map<string, string>()
    for (const turn of turns) for (const block of turn.blocks) if (block.kind === 'tool' && block.toolUseId) turnOfCall.set(block.toolUseId, turn.key)
    const lastKey = turns.at(-1)?.key
    for (const child of root.children) {
      const spent = totals.get(child)
      if (!spent || (spent.tokens === 0 && spent.costUsd === 0)) continue
      tokens += spent.tokens
      costUsd += spent.costUsd
      const callId = tree.nodes[child]?.toolUseId
      const key = (callId !== undefined ? turnOfCall.get(callId) : undefined) ?? lastKey
      if (key === undefined) continue
      const before = agents[key] ?? NOTHING
      agents[key] = { tokens: before.tokens + spent.tokens, costUsd: before.costUsd + spent.costUsd }
    }
  }
  return { total: { tokens, costUsd }, agents }
}

/** Dollars as every spend figure shows them: four decimals under a cent, else two (`$0.0042`, `$1.25`). */
export function formatUsd(usd: number): string {
  return usd > 0 && usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`
}

/** Token counts as every spend figure shows them: exact below 10,000, then `10.4k`, then `1.25M`. */
export function formatTokens(count: number): string {
  if (count < 10_000) return groupDigits(count)
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`
  return `${(count / 1_000_000).toFixed(2)}M`
}

/** The session on screen's spend, kept by the shell's glue (`app/spend-glue.ts`). */
export const useSessionSpend = create<SessionSpend>()(() => ({ total: NOTHING, agents: {} }))

/**
 * Stores a new reckoning, keeping the objects of figures that did not change (a memoised turn
 * footer then sees the same prop while another turn streams).
 */
export function setSessionSpend(next: SessionSpend): void {
  const now = useSessionSpend.getState()
  const same = (a: Spend | undefined, b: Spend | undefined) => a === b || (!!a && !!b && a.tokens === b.tokens && a.costUsd === b.costUsd)
  const agents: Record<string, Spend> = {}
  let changed = Object.keys(now.agents).length !== Object.keys(next.agents).length
  for (const [key, spend] of Object.entries(next.agents)) {
    if (same(now.agents[key], spend)) agents[key] = now.agents[key]!
    else {
      agents[key] = spend
      changed = true
    }
  }
  const total = same(now.total, next.total) ? now.total : next.total
  if (changed || total !== now.total) useSessionSpend.setState({ total, agents: changed ? agents : now.agents })
}
