import { useEffect } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { openView } from '../../lib/open-dialog'
import { IndexView } from './IndexView'
import { MemoryEditor } from './MemoryEditor'
import { MemoryList } from './MemoryList'
import { Proposals } from './Proposals'
import { useMemory } from './store'
import './memory.css'

export interface MemoryBrowserProps {
  projectPath: string | null
  dark: boolean
  fontSize: number
  onClose(): void
  /** Shows a session in the chat (a memory's "used in" list opens one). */
  onOpenSession(sessionId: string, projectPath: string): void
}

/**
 * The memory browser: the project's and the user's memories by scope and type, searchable; one
 * open in the editor; the index as the model sees it; writes the agent proposed. Follows changes
 * live while open (`/memory`, the palette).
 */
export function MemoryBrowser({ projectPath, dark, fontSize, onClose, onOpenSession }: MemoryBrowserProps) {
  useEffect(() => {
    if (!projectPath) return
    void useMemory.getState().open(projectPath)
    return () => useMemory.getState().close()
  }, [projectPath])

  return (
    <Dialog label="Memory" className="dialog-frame memory" onClose={onClose} initialFocus='input[aria-label="Search memories"]'>
      <DialogHeader title="Memory" onClose={onClose}>
        {projectPath && <Toolbar />}
      </DialogHeader>
      {projectPath ? (
        <Panes dark={dark} fontSize={fontSize} onOpenSession={(sessionId, path) => (onClose(), onOpenSession(sessionId, path))} />
      ) : (
        <p className="memory__empty">Open a project to see its memories and yours.</p>
      )}
    </Dialog>
  )
}

function Toolbar() {
  const count = useMemory((state) => state.memories.length)
  const select = useMemory((state) => state.select)
  const indexOpen = useMemory((state) => state.selection?.kind === 'index')
  return (
    <>
      <span className="status">
        {count} {count === 1 ? 'memory' : 'memories'}
      </span>
      <button type="button" className="button button--small" aria-pressed={indexOpen} onClick={() => select(indexOpen ? null : { kind: 'index' })}>
        Index as the model sees it
      </button>
      <button type="button" className="button button--small" onClick={() => openView('settings')} title="Memory on or off, where project memories live, whether the agent's writes wait for approval">
        Memory settings…
      </button>
      <button type="button" className="button button--small button--primary" onClick={() => select({ kind: 'new', scope: 'project' })}>
        New memory
      </button>
    </>
  )
}

/** The search box (its own component: a keystroke re-renders it and the list, nothing else). */
function SearchBox() {
  const query = useMemory((state) => state.query)
  const setQuery = useMemory((state) => state.setQuery)
  return <input className="field" type="search" aria-label="Search memories" placeholder="Search names, descriptions and text" value={query} onChange={(event) => setQuery(event.target.value)} />
}

function Panes({ dark, fontSize, onOpenSession }: { dark: boolean; fontSize: number; onOpenSession(sessionId: string, projectPath: string): void }) {
  const selection = useMemory((state) => state.selection)
  const error = useMemory((state) => state.error)
  const notice = useMemory((state) => state.notice)
  const lastDeleted = useMemory((state) => state.lastDeleted)
  const undo = useMemory((state) => state.undo)
  return (
    <div className="memory__panes">
      <section className="memory__side" aria-label="Memories by scope and type">
        <SearchBox />
        {lastDeleted && (
          <p className="memory__undo" role="status">
            Deleted “{lastDeleted.label}”.{' '}
            <button type="button" className="button button--small" onClick={() => void undo(lastDeleted.changeId)}>
              Undo
            </button>
          </p>
        )}
        <Proposals />
        <MemoryList />
      </section>
      <section className="memory__main" aria-label={selection?.kind === 'index' ? 'Index' : 'Memory editor'}>
        {error && (
          <p className="pane__error" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="memory__notice" role="status">
            {notice}
          </p>
        )}
        {selection?.kind === 'index' ? (
          <IndexView />
        ) : selection ? (
          <MemoryEditor dark={dark} fontSize={fontSize} onOpenSession={onOpenSession} />
        ) : (
          <p className="memory__empty">Pick a memory to read or edit it, or make a new one. The agent saves memories after each turn from what you tell it.</p>
        )}
      </section>
    </div>
  )
}
