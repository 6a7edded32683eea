import type { ContextBreakdown } from '../../../../shared/ipc/context'
import { markers, percent, segments, tokens } from './format'

/**
 * The window as a bar: one segment per group of the next request (system prompt, CLAUDE.md files,
 * memory and other sections, tool schemas, messages) and a tick at each compaction threshold. The
 * figures are also in the tables below, so the bar is one labelled image for assistive technology.
 */
export function ContextBar({ breakdown }: { breakdown: ContextBreakdown }) {
  const drawn = segments(breakdown)
  const ticks = markers(breakdown)
  const label = `${tokens(breakdown.total)} of ${tokens(breakdown.window)} tokens used: ${drawn.map((segment) => `${segment.label} ${tokens(segment.tokens)}`).join(', ')}. Thresholds: ${ticks.map((tick) => `${tick.label} at ${tokens(tick.tokens)}`).join(', ')}.`
  return (
    <figure className="context-bar">
      <div className="context-bar__track" role="img" aria-label={label}>
        {drawn.map((segment) => (
          <span
            key={segment.id}
            className={`context-bar__segment context-bar__segment--${segment.id}`}
            style={{ left: `${segment.start * 100}%`, width: `${segment.width * 100}%` }}
            title={`${segment.label}: ${tokens(segment.tokens)} (${percent(segment.tokens, breakdown.window)})`}
          />
        ))}
        {ticks.map((tick) => (
          <span key={tick.label} className="context-bar__tick" style={{ left: `${tick.at * 100}%` }} title={`${tick.label} at ${tokens(tick.tokens)} tokens`} />
        ))}
      </div>
      <figcaption className="context-bar__legend">
        {drawn.map((segment) => (
          <span key={segment.id} className="context-bar__key">
            <span className={`context-bar__swatch context-bar__segment--${segment.id}`} aria-hidden="true" />
            {segment.label} {tokens(segment.tokens)}
          </span>
        ))}
        <span className="context-bar__key context-bar__key--muted">free {tokens(Math.max(0, breakdown.window - breakdown.total))}</span>
      </figcaption>
    </figure>
  )
}
