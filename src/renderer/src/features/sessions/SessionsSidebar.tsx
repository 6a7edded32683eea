import { useEffect, useState, type FormEvent } from 'react'
import type { SessionSummary } from '../../../../shared/ipc/contract'
import { relativeTime } from './relative-time'
import { useSessions } from './store'
import './sessions.css'

export interface SessionsSidebarProps {
  projectPath: string
  /** The session open in the chat. */
  activeSessionId: string | null
  /** Bumped when a turn or tool ended (titles and times change). */
  revision: number
  /** Opens a session; `projectPath` is the session's project (search may find other projects'). */
  onOpen(sessionId: string, projectPath: string): void
  onNew(): void
}

/** A project's sessions: new, open (resume with history), rename, export, delete, and search by text. */
export function SessionsSidebar({
  projectPath,
  activeSessionId,
  revision,
  onOpen,
  onNew,
}: SessionsSidebarProps) {
  const list = useSessions((state) => state.lists[projectPath])
  const query = useSessions((state) => state.query)
  const matches = useSessions((state) => state.matches)
  const error = useSessions((state) => state.error)
  const allProjects = useSessions((state) => state.allProjects)
  const { refresh, search, setAllProjects, clearError } = useSessions.getState()

  useEffect(() => {
    void refresh(projectPath)
  }, [projectPath, refresh, activeSessionId, revision])

  const rows: Array<{ summary: SessionSummary; snippet?: string }> =
    matches ?? (list ?? []).map((summary) => ({ summary }))

  return (
    <section className="sessions" aria-label="Sessions">
      <header className="sessions__header">
        <h2 className="pane__title">Sessions</h2>
        <button type="button" className="button button--small" onClick={onNew}>
          New session
        </button>
      </header>
      <input
        className="field field--small sessions__search"
        type="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={query}
        onChange={(event) => void search(projectPath, event.target.value)}
      />
      <label className="sessions__scope">
        <input
          type="checkbox"
          checked={allProjects}
          onChange={(event) => void setAllProjects(projectPath, event.target.checked)}
        />
        All projects
      </label>
      {error && (
        <p className="pane__error" role="alert">
          {error}{' '}
          <button
            type="button"
            className="button button--quiet button--small"
            onClick={clearError}
            aria-label="Dismiss error"
          >
            ×
          </button>
        </p>
      )}
      <ul className="sessions__list" aria-label={matches ? 'Search results' : 'Stored sessions'}>
        {rows.length === 0 && (
          <li className="sessions__empty">{matches ? 'No session matches.' : 'No sessions yet.'}</li>
        )}
        {rows.map(({ summary, snippet }) => (
          <SessionRow
            key={summary.sessionId}
            projectPath={projectPath}
            summary={summary}
            snippet={snippet}
            active={summary.sessionId === activeSessionId}
            onOpen={onOpen}
          />
        ))}
      </ul>
    </section>
  )
}

function SessionRow({
  projectPath,
  summary,
  snippet,
  active,
  onOpen,
}: {
  projectPath: string
  summary: SessionSummary
  snippet?: string
  active: boolean
  onOpen(id: string, projectPath: string): void
}) {
  const { rename, remove, exportMarkdown, exportReplay } = useSessions.getState()
  const [mode, setMode] = useState<'idle' | 'renaming' | 'deleting'>('idle')
  const [title, setTitle] = useState(summary.title)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (title.trim() && (await rename(projectPath, summary.sessionId, title.trim()))) setMode('idle')
  }

  if (mode === 'renaming') {
    return (
      <li className="session session--editing">
        <form onSubmit={(event) => void submit(event)} className="session__rename">
          <input
            className="field field--small"
            aria-label="Session name"
            value={title}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault()
                setTitle(summary.title)
                setMode('idle')
              }
            }}
          />
          <button type="submit" className="button button--small">
            Save
          </button>
        </form>
      </li>
    )
  }
  return (
    <li className={`session${active ? ' session--active' : ''}`}>
      <button
        type="button"
        className="session__open"
        aria-current={active ? 'true' : undefined}
        aria-label={`Open session ${summary.title}`}
        onClick={() => onOpen(summary.sessionId, summary.projectPath)}
      >
        <span className="session__title">{summary.title}</span>
        <span className="session__meta">
          {relativeTime(summary.updatedAt, Date.now())}
          {summary.projectPath !== projectPath &&
            ` · in ${summary.projectPath.split('/').pop() ?? summary.projectPath}`}
          {summary.skippedLines !== undefined &&
            ` · ${summary.skippedLines} damaged line${summary.skippedLines === 1 ? '' : 's'} left out`}
        </span>
        {snippet && snippet !== summary.title && <span className="session__snippet">{snippet}</span>}
      </button>
      {mode === 'deleting' ? (
        <span className="session__confirm" role="group" aria-label={`Delete ${summary.title}?`}>
          <button
            type="button"
            className="button button--small button--danger"
            autoFocus
            onClick={() => void remove(projectPath, summary.sessionId)}
          >
            Delete
          </button>
          <button type="button" className="button button--small" onClick={() => setMode('idle')}>
            Keep
          </button>
        </span>
      ) : (
        <span className="session__actions">
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={`Rename ${summary.title}`}
            onClick={() => setMode('renaming')}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={`Export ${summary.title} as Markdown`}
            onClick={() => void exportMarkdown(summary.sessionId)}
          >
            Export
          </button>
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={`Export ${summary.title} as an HTML replay`}
            onClick={() => void exportReplay(summary.sessionId)}
          >
            HTML
          </button>
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={`Delete ${summary.title}`}
            onClick={() => setMode('deleting')}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  )
}
