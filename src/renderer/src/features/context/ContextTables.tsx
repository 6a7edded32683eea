import type { CompactionRecord } from '../../../../shared/protocol/compaction'
import type { ContextBreakdown } from '../../../../shared/ipc/context'
import { distance, percent, tokens } from './format'

const LAYER_NAMES: Record<CompactionRecord['layer'], string> = {
  snip: 'Snip',
  micro: 'Micro-compaction',
  collapse: 'Collapse',
  auto: 'Automatic summary',
  reactive: 'Summary after an overflow',
  manual: 'Summary on request',
}

/** Every part of the next request, by group, sized in tokens and as a share of the window. */
export function PartsTable({ breakdown }: { breakdown: ContextBreakdown }) {
  return (
    <table className="context-table">
      <caption>What the next request holds</caption>
      <thead>
        <tr>
          <th scope="col">Part</th>
          <th scope="col">Tokens</th>
          <th scope="col">Window</th>
        </tr>
      </thead>
      {breakdown.groups.map((group) => (
        <tbody key={group.id}>
          <tr className="context-table__group">
            <th scope="rowgroup">{group.label}</th>
            <td>{tokens(group.tokens)}</td>
            <td>{percent(group.tokens, breakdown.window)}</td>
          </tr>
          {group.items.length === 0 && (
            <tr>
              <td colSpan={3} className="context-table__empty">
                none
              </td>
            </tr>
          )}
          {group.items.map((item) => (
            <tr key={`${item.label}\n${item.detail ?? ''}`}>
              <th scope="row" className="context-table__item">
                {item.label}
                {item.detail && <span className="context-table__detail"> · {item.detail}</span>}
              </th>
              <td>{tokens(item.tokens)}</td>
              <td>{percent(item.tokens, breakdown.window)}</td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  )
}

/** What each layer would do next, before it runs. */
export function NextCompaction({ breakdown }: { breakdown: ContextBreakdown }) {
  return (
    <section className="context-section" aria-labelledby="context-next">
      <h3 id="context-next">What compaction would do next</h3>
      <ol className="context-next">
        {breakdown.next.map((layer) => (
          <li key={layer.layer} className={layer.due ? 'context-next__item context-next__item--due' : 'context-next__item'}>
            <strong>{LAYER_NAMES[layer.layer]}</strong>{' '}
            <span className="context-next__when">
              at {layer.unit === 'tokens' ? `${tokens(layer.at)} tokens` : `${layer.at} messages`} — {distance(layer.at, layer.unit === 'tokens' ? breakdown.total : breakdown.messageCount, layer.unit)}
            </span>
            <p>{layer.summary}</p>
            {layer.items.length > 0 && <p className="context-next__items">{layer.items.join('; ')}</p>}
          </li>
        ))}
      </ol>
      {breakdown.autoCompactOff && <p role="note">Automatic summaries are off for this session after failing repeatedly; “Compact now” tries again.</p>}
    </section>
  )
}

/** The compactions of this session, newest first, with their before and after sizes. */
export function CompactionHistory({ history }: { history: readonly CompactionRecord[] }) {
  return (
    <table className="context-table">
      <caption>Compactions in this session</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Layer</th>
          <th scope="col">Before → after</th>
          <th scope="col">What happened</th>
        </tr>
      </thead>
      <tbody>
        {history.length === 0 && (
          <tr>
            <td colSpan={4} className="context-table__empty">
              None yet.
            </td>
          </tr>
        )}
        {[...history].reverse().map((record, index) => (
          <tr key={`${record.at}-${index}`} className={record.status === 'done' ? undefined : 'context-table__row--problem'}>
            <td>{new Date(record.at).toLocaleTimeString()}</td>
            <td>
              {LAYER_NAMES[record.layer]}
              {record.trigger === 'manual' ? ' (you)' : ''}
            </td>
            <td>
              {tokens(record.tokensBefore)} → {tokens(record.tokensAfter)}
            </td>
            <td>
              {record.status === 'done' ? '' : `${record.status}: `}
              {record.detail}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
