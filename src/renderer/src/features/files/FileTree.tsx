import { useEffect, useMemo, type KeyboardEvent } from 'react'
import type { FileEntry } from '../../../../shared/ipc/contract'
import { changedPaths } from './changes'
import { isExpanded, useFiles } from './store'
import './files.css'

export interface FileTreeProps {
  root: string
  /** The session whose changes are marked. */
  sessionId: string | null
  /** Bumped when the agent may have changed files (a tool ended). */
  revision: number
}

/** The project's files (`.gitignore` respected); files the agent changed in this session are marked. */
export function FileTree({ root, sessionId, revision }: FileTreeProps) {
  const top = useFiles((state) => state.folders[root]?.[''])
  const changes = useFiles((state) => (sessionId ? state.changes[sessionId] : undefined))
  const { load, loadChanges, showChanges } = useFiles.getState()
  const marks = useMemo(() => changedPaths(changes ?? [], root), [changes, root])

  useEffect(() => {
    void load(root, '')
  }, [root, load, revision])
  useEffect(() => {
    if (sessionId) void loadChanges(sessionId)
  }, [sessionId, loadChanges, revision])

  return (
    <section className="files" aria-label="Files">
      <header className="files__header">
        <h2 className="pane__title">Files</h2>
        {sessionId && (changes?.length ?? 0) > 0 && (
          <button type="button" className="button button--small" onClick={() => void showChanges(sessionId)}>
            Changes ({changes?.length})
          </button>
        )}
      </header>
      <ul className="files__tree" role="tree" aria-label="Project files" onKeyDown={moveInTree}>
        {top?.map((entry) => (
          <Node key={entry.path} root={root} entry={entry} depth={0} marks={marks} />
        ))}
      </ul>
    </section>
  )
}

function Node({
  root,
  entry,
  depth,
  marks,
}: {
  root: string
  entry: FileEntry
  depth: number
  marks: ReturnType<typeof changedPaths>
}) {
  const expanded = useFiles((state) => entry.kind === 'dir' && isExpanded(state, root, entry.path))
  const children = useFiles((state) => (expanded ? state.folders[root]?.[entry.path] : undefined))
  const { toggle, openFile } = useFiles.getState()
  const changed = entry.kind === 'file' ? marks.files.has(entry.path) : marks.folders.has(entry.path)

  return (
    <li
      role="treeitem"
      aria-expanded={entry.kind === 'dir' ? expanded : undefined}
      aria-selected={false}
      aria-label={`${entry.name}${changed ? ' (changed)' : ''}`}
    >
      <button
        type="button"
        className={`files__node files__node--${entry.kind}${changed ? ' files__node--changed' : ''}`}
        style={{ paddingLeft: 6 + depth * 14 }}
        onClick={() => void (entry.kind === 'dir' ? toggle(root, entry.path) : openFile(root, entry.path))}
        onKeyDown={(event) => {
          if (entry.kind !== 'dir') return
          if ((event.key === 'ArrowRight' && !expanded) || (event.key === 'ArrowLeft' && expanded)) {
            event.preventDefault()
            void toggle(root, entry.path)
          }
        }}
      >
        <span aria-hidden="true" className="files__icon">
          {entry.kind === 'dir' ? (expanded ? '▾' : '▸') : ''}
        </span>
        {entry.name}
        {changed && (
          <span className="files__mark" aria-hidden="true">
            M
          </span>
        )}
      </button>
      {expanded && children && (
        <ul role="group">
          {children.map((child) => (
            <Node key={child.path} root={root} entry={child} depth={depth + 1} marks={marks} />
          ))}
        </ul>
      )}
    </li>
  )
}

/** Up/Down (and Home/End) move between the visible rows of the tree. */
function moveInTree(event: KeyboardEvent<HTMLUListElement>): void {
  const keys: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }
  const step = keys[event.key]
  if (step === undefined) return
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('.files__node'))
  if (rows.length === 0) return
  const at = rows.indexOf(document.activeElement as HTMLButtonElement)
  const next = Number.isFinite(step)
    ? Math.min(rows.length - 1, Math.max(0, at + step))
    : step < 0
      ? 0
      : rows.length - 1
  event.preventDefault()
  rows[next]?.focus()
}
