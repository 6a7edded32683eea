import { memo, useState } from 'react'
import type { ParallelRun, ParallelSession, ParallelState } from '../../../../shared/ipc/contract'

const STATE_LABEL: Record<ParallelState, string> = { starting: 'starting', running: 'working', waiting: 'waiting for you', done: 'done', stopped: 'stopped', failed: 'failed', idle: 'idle' }

/** "$0.0123" — costs of a short run are cents. */
export function formatCost(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`
}

/**
 * The run's sessions side by side: each one's worktree, model, state, cost and changed files, and
 * what can be done with it (open it, its actions). `actions` renders the selected session's extra
 * controls (Update from base, commit, Open PR).
 */
export const SessionCards = memo(function SessionCards(props: { run: ParallelRun; selected: string | null; onSelect(sessionId: string): void; onOpen(session: ParallelSession): void; onShowFile(sessionId: string, path: string): void }) {
  const { run, selected, onSelect, onOpen, onShowFile } = props
  return (
    <ul className="parallel-sessions" aria-label="Sessions side by side">
      {run.sessions.map((session) => (
        <li key={session.sessionId} className="parallel-card" aria-label={`Session ${session.name}`} aria-current={session.sessionId === selected ? 'true' : undefined} data-state={session.state}>
          <header className="parallel-card__head">
            <strong>{session.model}</strong> <span className="parallel-card__state">{STATE_LABEL[session.state]}</span>
            <span className="parallel-card__cost" aria-label={`Cost of ${session.name}`}>
              {formatCost(session.costUsd)}
            </span>
          </header>
          <p className="parallel-card__branch" title={session.worktree}>
            {session.branch}
          </p>
          {session.message && <p className="parallel-card__message">{session.message}</p>}
          {session.problem && (
            <p className="pane__error" role="alert">
              {session.problem}
            </p>
          )}
          <ChangedFiles session={session} onShowFile={onShowFile} />
          <div className="parallel-card__actions">
            <button type="button" className="button button--small" onClick={() => onOpen(session)}>
              Open {session.name}
            </button>
            <button type="button" className="button button--small" aria-pressed={session.sessionId === selected} onClick={() => onSelect(session.sessionId)}>
              Actions of {session.name}
            </button>
          </div>
        </li>
      ))}
    </ul>
  )
})

/**
 * How many of a session's changed files its card lists before "Show all": the compare table below
 * lists every file anyway, and 4 sessions × 50 files drew 200 more buttons in the view's first paint.
 */
export const CARD_FILES = 8

/** A card's changed files, the first {@link CARD_FILES} until the user asks for all. */
function ChangedFiles({ session, onShowFile }: { session: ParallelSession; onShowFile(sessionId: string, path: string): void }) {
  const [all, setAll] = useState(false)
  const shown = all ? session.changed : session.changed.slice(0, CARD_FILES)
  const more = session.changed.length - shown.length
  return (
    <ul className="parallel-card__files" aria-label={`Files changed by ${session.name}`}>
      {session.changed.length === 0 && <li className="parallel-card__none">No changes yet</li>}
      {shown.map((file) => (
        <li key={file.path}>
          <button type="button" className="link" onClick={() => onShowFile(session.sessionId, file.path)}>
            {file.path}
          </button>{' '}
          <span className="parallel-card__counts">{file.whole ? file.change : `+${file.additions} −${file.deletions}`}</span>
        </li>
      ))}
      {more > 0 && (
        <li>
          <button type="button" className="link" onClick={() => setAll(true)}>
            Show all {session.changed.length} files
          </button>
        </li>
      )}
    </ul>
  )
}
