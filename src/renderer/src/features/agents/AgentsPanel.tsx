import { memo, useEffect, useMemo, useState } from 'react'
import { waitingByAgent } from '../../state/approval-queue'
import { usePendingApprovals } from '../../state/approvals'
import { useSessionSpend } from '../../state/spend'
import { canOpen, canStop, elapsed, sameRow, stateName, usageText, visibleRows, withSessionTotal, type TreeRow } from './rows'
import { useAgentTree } from './store'
import './agents.css'

/**
 * The live tree of everything working in the session on screen: the main agent at the root, its
 * subagents nested to any depth, background commands and task items; each with its state, elapsed
 * time, tokens and cost (its own plus its children's) and what it is doing now. A node opens its
 * conversation read-only, and stops with everything below it.
 */
export function AgentsPanel({ sessionId }: { sessionId: string | null }) {
  const tree = useAgentTree((state) => state.tree)
  const pending = usePendingApprovals((state) => state.queue)
  const waiting = useMemo(() => waitingByAgent(pending, sessionId), [pending, sessionId])
  const folded = useAgentTree((state) => state.folded)
  const error = useAgentTree((state) => state.error)
  const { show, clearError } = useAgentTree.getState()

  useEffect(() => {
    void show(sessionId)
  }, [sessionId, show])

  const total = useSessionSpend((state) => state.total)
  const rows = useMemo(() => (tree ? withSessionTotal(visibleRows(tree, folded, waiting), total) : []), [tree, folded, waiting, total])
  const running = rows.some((row) => row.node.state === 'running' && row.node.startedAt !== undefined)
  const now = useNow(running)

  return (
    <section className="agents" aria-label="Agents" data-empty={!sessionId || undefined}>
      <header className="agents__header">
        <h2 className="pane__title">Agents</h2>
        {rows[0] && <span className="agents__total" data-testid="agents-total">{usageText(rows[0].tokens, rows[0].costUsd)}</span>}
      </header>
      {error && (
        <p className="pane__error" role="alert">
          {error}{' '}
          <button type="button" className="button button--quiet button--small" onClick={clearError} aria-label="Dismiss error">
            ×
          </button>
        </p>
      )}
      {!sessionId ? (
        <p className="agents__empty">Agents appear here once the conversation starts.</p>
      ) : (
        <div className="agents__tree" role="tree" aria-label="Agent tree">
          {rows.map((row) => (
            <Row key={row.node.id} row={row} now={row.node.state === 'running' ? now : 0} />
          ))}
        </div>
      )}
    </section>
  )
}

/**
 * One node: memoized by what it shows (the rows are rebuilt on every change of the tree), so a
 * change to one agent re-renders its row alone (and its ancestors' totals).
 */
const Row = memo(function Row({ row, now }: { row: TreeRow; now: number }) {
  const { node } = row
  const { toggle, stop, open } = useAgentTree.getState()
  const state = stateName(row)
  const time = elapsed(node, now || Date.now())
  const usage = usageText(row.tokens, row.costUsd)
  const name = `${node.label}: ${node.description}`
  return (
    <div
      className={`agents__row agents__row--${node.state}${row.waiting > 0 ? ' agents__row--waiting' : ''}`}
      role="treeitem"
      aria-level={row.level}
      aria-expanded={row.parent ? !row.folded : undefined}
      aria-selected={false}
      aria-label={`${name} — ${state}`}
      data-node-id={node.id}
      style={{ paddingLeft: `${(row.level - 1) * 14 + 4}px` }}
    >
      <span className="agents__fold">
        {row.parent && (
          <button type="button" className="agents__toggle" aria-label={`${row.folded ? 'Expand' : 'Collapse'} ${node.label}`} onClick={() => toggle(node.id)}>
            {row.folded ? '▸' : '▾'}
          </button>
        )}
      </span>
      <span className="agents__main">
        {canOpen(node) ? (
          <button type="button" className="agents__open" onClick={() => void open(node.id, name)} aria-label={`Open the conversation of ${name}`}>
            <span className="agents__label">{node.label}</span> <span className="agents__description">{node.description}</span>
          </button>
        ) : (
          <span className="agents__open agents__open--static">
            <span className="agents__label">{node.label}</span> <span className="agents__description">{node.description}</span>
          </span>
        )}
        <span className="agents__meta">
          <span className={`agents__state agents__state--${node.state}`}>{state}</span>
          {node.background && <span className="agents__badge">background</span>}
          {time && <span>{time}</span>}
          {usage && <span>{usage}</span>}
        </span>
        {node.activity && <span className="agents__activity">{node.activity}</span>}
        {node.message && node.state !== 'running' && <span className="agents__message">{node.message}</span>}
      </span>
      {canStop(node) && (
        <button type="button" className="button button--quiet button--small agents__stop" aria-label={`Stop ${name}`} onClick={() => void stop(node.id)}>
          Stop
        </button>
      )}
    </div>
  )
}, (before, after) => before.now === after.now && sameRow(before.row, after.row))

/** The time now, ticking once a second while `active` (elapsed times of running nodes). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}
