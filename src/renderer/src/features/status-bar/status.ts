import type { PermissionModeName } from '../../../../shared/ipc/contract'
import { contextWindowOf } from '../../../../shared/context-window'
import type { BudgetLine, Usage } from '../../../../shared/protocol/agent-event'

/** What the status bar reads of a conversation: each turn's latest usage (the chat's transcript fits). */
export interface UsageHistory {
  turns: ReadonlyArray<{
    usage?: { request: Usage; total: Usage; costUsd: number; model: string }
    /** The session's own count (before each request, after compactions) and its window. */
    context?: { tokens: number; window: number; autoCompactAt: number }
    /** The session's spend against its caps and the next request's forecast (budget guard). */
    budget?: { spentUsd: number; spentTokens: number; forecastUsd: number; forecastTokens: number; lines: BudgetLine[]; level: 'ok' | 'warning' | 'exceeded' }
  }>
}

/** What the status bar says about spending: the tightest cap against its spend, and the next request's forecast. */
export interface BudgetFacts {
  /** Spend against the cap closest to being reached, as text (`$0.42 / $1.00`, `120k / 500k tokens`). */
  againstCap?: string
  /** The next request's expected cost (`~$0.03`). */
  next: string
  level: 'ok' | 'warning' | 'exceeded'
  /** A sentence for assistive technology and the tooltip. */
  label: string
}

/** The latest budget report of the conversation, for the status bar; undefined before any. */
export function budgetFacts(transcript: UsageHistory): BudgetFacts | undefined {
  const budget = transcript.turns.findLast((turn) => turn.budget)?.budget
  if (!budget) return undefined
  const next = `~${money(budget.forecastUsd)}`
  const tightest = budget.lines.reduce<BudgetLine | undefined>((best, line) => (!best || line.spent / line.cap > best.spent / best.cap ? line : best), undefined)
  if (!tightest) return { next, level: budget.level, label: `Next request about ${money(budget.forecastUsd)}; no spending cap set` }
  const scope = tightest.key.startsWith('project') ? 'project' : 'session'
  const againstCap = tightest.key.endsWith('Usd') ? `${money(tightest.spent)} / ${money(tightest.cap)}` : `${compactCount(tightest.spent)} / ${compactCount(tightest.cap)} tokens`
  return { againstCap, next, level: budget.level, label: `Budget: ${againstCap} (${scope} cap). Next request about ${money(budget.forecastUsd)}` }
}

function money(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`
}

/** What the status bar shows, derived from the conversation. */
export interface StatusFacts {
  model?: string
  /** Tokens of the latest request's context (input, cache and output), against the window. */
  contextUsed: number
  contextWindow: number
  totalTokens: number
  costUsd: number
  /** Share of input tokens served from the prompt cache, 0..1 (`undefined` before any request). */
  cacheReadShare?: number
  /** Where automatic compaction starts, when the session said. */
  autoCompactAt?: number
}

export { contextWindowOf }

/** Reads the latest usage of the conversation. */
export function statusFacts(transcript: UsageHistory): StatusFacts {
  let context: { tokens: number; window: number; autoCompactAt: number } | undefined
  for (let i = transcript.turns.length - 1; i >= 0; i--) {
    const turn = transcript.turns[i]!
    context ??= turn.context
    const usage = turn.usage
    if (!usage) continue
    const { request, total } = usage
    const inputSide = total.inputTokens + total.cacheReadTokens + total.cacheWriteTokens
    return {
      model: usage.model,
      contextUsed: context?.tokens ?? request.inputTokens + request.cacheReadTokens + request.cacheWriteTokens + request.outputTokens,
      contextWindow: context?.window ?? contextWindowOf(usage.model),
      totalTokens: inputSide + total.outputTokens,
      costUsd: usage.costUsd,
      cacheReadShare: inputSide > 0 ? total.cacheReadTokens / inputSide : 0,
      ...(context && { autoCompactAt: context.autoCompactAt }),
    }
  }
  return context
    ? { contextUsed: context.tokens, contextWindow: context.window, autoCompactAt: context.autoCompactAt, totalTokens: 0, costUsd: 0 }
    : { contextUsed: 0, contextWindow: contextWindowOf(undefined), totalTokens: 0, costUsd: 0 }
}

/**
 * The modes Shift+Tab cycles through, as in Claude Code (bypass and dontAsk are set in settings
 * only); auto is left out where `disableAutoMode` is set.
 */
export const CYCLED_MODES: readonly PermissionModeName[] = ['default', 'acceptEdits', 'plan', 'auto']

/** The mode after `mode` in the Shift+Tab cycle (a mode outside the cycle goes back to default). */
export function nextMode(mode: PermissionModeName, autoModeOff = false): PermissionModeName {
  const cycle = autoModeOff ? CYCLED_MODES.filter((m) => m !== 'auto') : CYCLED_MODES
  const index = cycle.indexOf(mode)
  return cycle[(index + 1) % cycle.length] ?? 'default'
}

/** A person's label for a mode. */
export function modeLabel(mode: PermissionModeName): string {
  switch (mode) {
    case 'default':
      // Claude Code's name for this mode since 2.1.200.
      return 'Manual'
    case 'acceptEdits':
      return 'Accept edits'
    case 'plan':
      return 'Plan mode (read-only)'
    case 'auto':
      return 'Auto'
    case 'bypassPermissions':
      return 'Bypass permissions'
    case 'dontAsk':
      return "Don't ask (deny what needs approval)"
  }
}

/** Where the meter turns amber: well before automatic compaction (60 % of the window without a threshold). */
export function lowMark(facts: Pick<StatusFacts, 'autoCompactAt' | 'contextWindow'>): number {
  return facts.autoCompactAt ? (facts.autoCompactAt / facts.contextWindow) * 0.75 : 0.6
}

/** Where the meter turns red: at automatic compaction (85 % without a threshold). */
export function highMark(facts: Pick<StatusFacts, 'autoCompactAt' | 'contextWindow'>): number {
  return facts.autoCompactAt ? facts.autoCompactAt / facts.contextWindow : 0.85
}

/** "12.3k", "1.2M": compact token counts. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}
