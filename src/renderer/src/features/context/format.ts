import type { ContextBreakdown, ContextGroup } from '../../../../shared/ipc/context'

/** "12.3k", "167k", "1.2M": token counts for people. */
export function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n))
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

/** A share of the window as a percentage with at most one decimal ("0.4 %", "38 %"). */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0 %'
  const value = (part / whole) * 100
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} %`
}

/** One segment of the bar: a group's share of the window (0..1), where it starts. */
export interface Segment {
  id: ContextGroup['id']
  label: string
  tokens: number
  start: number
  width: number
}

/**
 * The bar's segments, in the order of the request (system, instructions, sections, tools,
 * messages), each as a share of the window; together never wider than the window.
 */
export function segments(breakdown: Pick<ContextBreakdown, 'groups' | 'window'>): Segment[] {
  const out: Segment[] = []
  let start = 0
  for (const group of breakdown.groups) {
    if (group.tokens <= 0) continue
    const width = Math.max(0, Math.min(group.tokens / breakdown.window, 1 - start))
    out.push({ id: group.id, label: group.label, tokens: group.tokens, start, width })
    start += width
  }
  return out
}

/** The thresholds drawn on the bar, as shares of the window, in the order they are reached. */
export function markers(breakdown: Pick<ContextBreakdown, 'thresholds' | 'window'>): Array<{ label: string; at: number; tokens: number }> {
  const { thresholds, window } = breakdown
  return [
    { label: 'Micro-compaction', tokens: thresholds.micro },
    { label: 'Automatic summary', tokens: thresholds.autoCompact },
    { label: 'Collapse', tokens: thresholds.collapse },
    { label: 'Hard collapse', tokens: thresholds.hardCollapse },
  ]
    .filter((marker) => marker.tokens > 0 && marker.tokens < window)
    .sort((a, b) => a.tokens - b.tokens)
    .map((marker) => ({ ...marker, at: marker.tokens / window }))
}

/** "in 12k tokens", "now": how far the conversation is from a threshold. */
export function distance(at: number, now: number, unit: 'tokens' | 'messages'): string {
  if (now >= at) return 'due before the next request'
  const left = at - now
  return unit === 'tokens' ? `in ${tokens(left)} tokens` : `in ${left} message${left === 1 ? '' : 's'}`
}
