import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useMemo, useRef } from 'react'
import type { MemoryDocument } from '../../../../shared/ipc/contract'
import { MEMORY_TYPE_HELP, type MemoryType } from '../../../../shared/memory'
import { memoryKey, rowsFor, type Row } from './rows'
import { useMemory } from './store'

const SCOPE_TITLE = { user: 'User memory (every project)', project: 'Project memory' } as const
const TYPE_TITLE: Record<string, string> = { user: 'User', feedback: 'Feedback', project: 'Project', reference: 'Reference', problems: 'Needs attention' }

/**
 * The memories by scope and type, filtered by the search box. Only the rows on screen are in the
 * page (a thousand memories list as fast as ten); a memory the agent just wrote is highlighted
 * with its Undo.
 */
export function MemoryList() {
  const items = useMemory((state) => state.items)
  const query = useMemory((state) => state.query)
  const rows = useMemo(() => rowsFor(items, query), [items, query])
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]!.kind === 'memory' ? 52 : 30),
    getItemKey: (index) => rows[index]!.key,
    overscan: 10,
  })
  const shown = rows.filter((row) => row.kind === 'memory').length
  return (
    <div ref={scroller} className="memory-list" role="list" aria-label={`Memories (${shown}${query ? ' matching' : ''})`}>
      <div className="memory-list__space" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div key={item.key} role="listitem" className="memory-list__row" style={{ transform: `translateY(${item.start}px)`, height: item.size }}>
            <RowView row={rows[item.index]!} />
          </div>
        ))}
      </div>
    </div>
  )
}

function RowView({ row }: { row: Row }) {
  if (row.kind === 'scope') {
    return (
      <h3 className="memory-list__scope">
        {SCOPE_TITLE[row.scope]} <span className="memory-list__count">{row.count === 0 ? 'none' : row.count}</span>
      </h3>
    )
  }
  if (row.kind === 'type') {
    return (
      <h4 className="memory-list__type" title={MEMORY_TYPE_HELP[row.type as MemoryType] ?? 'Files that are not valid memories'}>
        {TYPE_TITLE[row.type] ?? row.type} <span className="memory-list__count">{row.count}</span>
      </h4>
    )
  }
  return <MemoryRow memory={row.memory} />
}

/** One memory; kept across filtering (the same memory renders once, whatever the query). */
const MemoryRow = memo(function MemoryRow({ memory }: { memory: MemoryDocument }) {
  const key = memoryKey(memory.scope, memory.file)
  const selected = useMemory((state) => state.selection?.kind === 'memory' && memoryKey(state.selection.scope, state.selection.file) === key)
  const highlight = useMemory((state) => state.highlights[key])
  const select = useMemory((state) => state.select)
  const undo = useMemory((state) => state.undo)
  const title = memory.name || memory.file
  return (
    <div className={`memory-row${selected ? ' memory-row--selected' : ''}${highlight ? ' memory-row--new' : ''}`}>
      <button type="button" className="memory-row__open" aria-current={selected || undefined} onClick={() => select({ kind: 'memory', scope: memory.scope, file: memory.file })}>
        <span className="memory-row__name">
          {title}
          {highlight && <span className="memory-row__badge">{highlight.by === 'agent' ? 'written by the agent' : 'changed'}</span>}
        </span>
        <span className="memory-row__description">{memory.problems[0]?.message ?? memory.description}</span>
      </button>
      {highlight && (
        <button type="button" className="button button--small" aria-label={`Undo the agent's change to ${title}`} onClick={() => void undo(highlight.changeId)}>
          Undo
        </button>
      )}
    </div>
  )
})
