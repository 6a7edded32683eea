import { useEffect, useState, type FormEvent } from 'react'
import type { SessionSummary } from '../../../../shared/ipc/contract'
import { refreshWorktrees, useWorktreeFacts, useWorktreeMark } from '../../state/worktrees'
import { relativeTime } from './relative-time'
import { useSessions } from './store'
import { WorktreeChoice } from './WorktreeChoice'
import './sessions.css'

export interface SessionsSidebarProps {
  projectPath: string
  /** The session open in the chat. */
  activeSessionId: string | null
  /** Bumped when a turn or tool ended (titles and times change). */
  revision: number
  /** Opens a session; `projectPath` is the session's project (search may find other projects'). */
  onOpen(sessionId: string, projectPath: string): void
  /** Shows a session just started in a new worktree (its folder's tab opens). */
  onStarted(sessionId: string, projectPath: string): void
  onNew(): void
  /** Archives a worktree session (its worktree and branch go): the shell opens the Worktrees dialog for it. */
  onArchive(sessionId: string, title: string): void
}

/**
 * A project's sessions: new (in the project, or in a new worktree of it), open (resume with
 * history; a worktree session opens in its worktree's tab), rename, export, delete, archive a
 * worktree session, and search by text. The project's worktree sessions are listed with its own,
 * marked with their worktree and branch.
 */
export function SessionsSidebar({
  projectPath,
  activeSessionId,
  revision,
  onOpen,
  onStarted,
  onNew,
  onArchive,
}: SessionsSidebarProps) {
  const list = useSessions((state) => state.lists[projectPath])
  const query = useSessions((state) => state.query)
  const matches = useSessions((state) => state.matches)
  const error = useSessions((state) => state.error)
  const allProjects = useSessions((state) => state.allProjects)
  const inWorktree = useSessions((state) => state.inWorktree)
  const creating = useSessions((state) => state.creating)
  const notice = useSessions((state) => state.notices[projectPath])
  const usable = useWorktreeFacts((state) => state.availability[projectPath]?.available === true)
  const worktreeRows = useWorktreeFacts((state) => state.rows[projectPath])
  const { refresh, search, setAllProjects, clearError, startInWorktree, dismissNotice } = useSessions.getState()

  // The worktrees (whose sessions join this list) are listed again when the session on screen changes.
  useEffect(() => {
    void refreshWorktrees(projectPath)
  }, [projectPath, activeSessionId])
  useEffect(() => {
    void refresh(projectPath)
  }, [projectPath, refresh, activeSessionId, revision, worktreeRows])

  const startNew = async () => {
    if (!inWorktree || !usable) return onNew()
    const started = await startInWorktree(projectPath)
    if (started) onStarted(started.sessionId, started.path)
  }

  const rows: Array<{ summary: SessionSummary; snippet?: string }> =
    matches ?? (list ?? []).map((summary) => ({ summary }))

  return (
    <section className="sessions" aria-label="Sessions">
      <header className="sessions__header">
        <h2 className="pane__title">Sessions</h2>
        {/* The visible words stay short (the section is narrow); the name says where the session goes. */}
        <button
          type="button"
          className="button button--small"
          disabled={creating}
          aria-label={creating ? 'Making the worktree…' : inWorktree && usable ? 'New session in a worktree' : undefined}
          onClick={() => void startNew()}
        >
          {creating ? 'Making…' : inWorktree && usable ? 'New session ⑂' : 'New session'}
        </button>
      </header>
      <WorktreeChoice projectPath={projectPath} />
      {notice && (
        <p className="sessions__notice" role="status">
          {notice}{' '}
          <button type="button" className="button button--quiet button--small" onClick={() => dismissNotice(projectPath)} aria-label="Dismiss the worktree notice">
            ×
          </button>
        </p>
      )}
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
            onArchive={onArchive}
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
  onArchive,
}: {
  projectPath: string
  summary: SessionSummary
  snippet?: string
  active: boolean
  onOpen(id: string, projectPath: string): void
  onArchive(id: string, title: string): void
}) {
  const { rename, remove, exportMarkdown, exportReplay } = useSessions.getState()
  // A session of a worktree (listed in its base project, or in the worktree's own tab).
  const worktree = useWorktreeMark(summary.projectPath)
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
    <li className={`session${active ? ' session--active' : ''}${worktree ? ' session--worktree' : ''}`}>
      <button
        type="button"
        className="session__open"
        aria-current={active ? 'true' : undefined}
        aria-label={`Open session ${summary.title}${worktree ? ` (worktree ${worktree.name})` : ''}`}
        onClick={() => onOpen(summary.sessionId, summary.projectPath)}
      >
        <span className="session__title">{summary.title}</span>
        <span className="session__meta">
          {relativeTime(summary.updatedAt, Date.now())}
          {worktree
            ? ` · worktree ${worktree.name} on ${worktree.branch}`
            : summary.projectPath !== projectPath && ` · in ${summary.projectPath.split('/').pop() ?? summary.projectPath}`}
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
          {worktree && (
            <button
              type="button"
              className="button button--quiet button--small"
              aria-label={`Archive ${summary.title} and its worktree`}
              onClick={() => onArchive(summary.sessionId, summary.title)}
            >
              Archive
            </button>
          )}
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
