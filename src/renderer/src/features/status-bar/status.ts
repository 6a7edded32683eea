import type { PermissionModeName } from '../../../../shared/ipc/contract'
import type { Usage } from '../../../../shared/protocol/agent-event'

/** What the status bar reads of a conversation: each turn's latest usage (the chat's transcript fits). */
export interface UsageHistory {
  turns: ReadonlyArray<{ usage?: { request: Usage; total: Usage; costUsd: number; model: string } }>
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
}

/** The context window of a model: 1M for the `[1m]` variants, 200k otherwise. */
export function contextWindowOf(model: string | undefined): number {
  return model && /\[1m\]|-1m\b/i.test(model) ? 1_000_000 : 200_000
}

/** Reads the latest usage of the conversation. */
export function statusFacts(transcript: UsageHistory): StatusFacts {
  for (let i = transcript.turns.length - 1; i >= 0; i--) {
    const usage = transcript.turns[i]!.usage
    if (!usage) continue
    const { request, total } = usage
    const inputSide = total.inputTokens + total.cacheReadTokens + total.cacheWriteTokens
    return {
      model: usage.model,
      contextUsed: request.inputTokens + request.cacheReadTokens + request.cacheWriteTokens + request.outputTokens,
      contextWindow: contextWindowOf(usage.model),
      totalTokens: inputSide + total.outputTokens,
      costUsd: usage.costUsd,
      cacheReadShare: inputSide > 0 ? total.cacheReadTokens / inputSide : 0,
    }
  }
  return { contextUsed: 0, contextWindow: contextWindowOf(undefined), totalTokens: 0, costUsd: 0 }
}

/** The modes Shift+Tab cycles through, as in Claude Code (bypass and dontAsk are set in settings only). */
export const CYCLED_MODES: readonly PermissionModeName[] = ['default', 'acceptEdits', 'plan']

/** The mode after `mode` in the Shift+Tab cycle (a mode outside the cycle goes back to default). */
export function nextMode(mode: PermissionModeName): PermissionModeName {
  const index = CYCLED_MODES.indexOf(mode)
  return CYCLED_MODES[(index + 1) % CYCLED_MODES.length] ?? 'default'
}

/** A person's label for a mode. */
export function modeLabel(mode: PermissionModeName): string {
  switch (mode) {
    case 'default':
      return 'Ask before changes'
    case 'acceptEdits':
      return 'Accept edits'
    case 'plan':
      return 'Plan mode (read-only)'
    case 'bypassPermissions':
      return 'Bypass permissions'
    case 'dontAsk':
      return "Don't ask (deny what needs approval)"
  }
}

/** "12.3k", "1.2M": compact token counts. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}
