import { useEffect } from 'react'
import type { WorktreeRow } from '../../../../shared/ipc/contract'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { refreshWorktrees, useWorktreeFacts } from '../../state/worktrees'
import { cleanupReason, cleanupRows, sessionWorktrees } from '../../state/worktree-model'
import { LossDetails } from './LossDetails'
import { useWorktrees } from './store'
import './worktrees.css'

export interface WorktreesViewProps {
  projectPath: string | null
  /** A worktree folder was removed (archived or cleaned up): its tab, if open, closes. */
  onRemoved(path: string): void
  onClose(): void
}

const EMPTY: WorktreeRow[] = []

/**
 * The Worktrees dialog: archive a session's worktree (its worktree and branch go; refused while it
 * holds uncommitted files or commits the base lacks, then "Archive anyway" names exactly what is
 * lost), the worktree sessions of the repository, and the worktrees to clean up (their session is
 * gone, or Sous did not make them), each removed only when asked. Opened from the palette and from
 * a worktree session's Archive button.
 */
export function WorktreesView({ projectPath, onRemoved, onClose }: WorktreesViewProps) {
  const rows = useWorktreeFacts((state) => (projectPath ? (state.rows[projectPath] ?? EMPTY) : EMPTY))
  const state = useWorktrees()
  useEffect(() => {
    if (projectPath) void refreshWorktrees(projectPath)
  }, [projectPath])
  const removed = (path: string | null) => {
    if (path) onRemoved(path)
  }
  const sessions = sessionWorktrees(rows)
  const leftovers = cleanupRows(rows)
  const target = state.target
  const targetRow = target ? rows.find((row) => row.sessionId === target.sessionId && row.owner !== 'agent') : undefined

  return (
    <Dialog label="Worktrees" className="dialog worktrees-dialog" onClose={onClose} initialFocus=".worktrees__primary">
      <DialogHeader title="Worktrees" onClose={onClose}>
        <span className="status" role="status">
          {state.busy ?? state.done ?? ''}
        </span>
      </DialogHeader>
      {!projectPath ? (
        <p className="worktrees__empty">Open a project (a git repository) to see its worktrees.</p>
      ) : (
        <div className="worktrees__body">
          {state.error && (
            <p className="pane__error" role="alert">
              {state.error}
            </p>
          )}
          {target && (
            <section className="worktrees__section" aria-label="Archive a session's worktree">
              <h3>Archive {target.title ?? `session ${target.sessionId.slice(0, 8)}`}</h3>
              <p>
                Archiving stops the session and removes its worktree
                {targetRow ? ` ${targetRow.name} (${targetRow.path}) and its branch ${targetRow.branch}` : ' and its branch'}. Its conversation stays readable.
              </p>
              {state.archiveLoss ? (
                <>
                  <LossDetails loss={state.archiveLoss} label="What archiving would lose" />
                  <div className="worktrees__actions">
                    <button type="button" className="button button--small button--danger" disabled={state.busy !== null} onClick={() => void state.archive(projectPath, true).then(removed)}>
                      Archive anyway, losing {state.archiveLoss.summary}
                    </button>
                    <button type="button" className="button button--small worktrees__primary" onClick={() => state.choose(null)}>
                      Keep it
                    </button>
                  </div>
                </>
              ) : (
                <div className="worktrees__actions">
                  <button type="button" className="button button--small worktrees__primary" disabled={state.busy !== null} onClick={() => void state.archive(projectPath, false).then(removed)}>
                    Archive the session and its worktree
                  </button>
                  <button type="button" className="button button--small" onClick={() => state.choose(null)}>
                    Cancel
                  </button>
                </div>
              )}
            </section>
          )}
          <section className="worktrees__section" aria-label="Worktree sessions">
            <h3>Worktree sessions</h3>
            {sessions.length === 0 ? (
              <p className="worktrees__empty">No session works in a worktree of this repository.</p>
            ) : (
              <ul className="worktrees__list">
                {sessions.map((row) => (
                  <li key={row.path} aria-label={`Worktree ${row.name}`}>
                    <span>
                      <strong>{row.name}</strong> on <code>{row.branch}</code> · {row.state === 'live' ? 'open now' : 'stored'}
                    </span>
                    <button type="button" className="button button--quiet button--small" onClick={() => state.choose({ sessionId: row.sessionId ?? '' })}>
                      Archive {row.name}…
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="worktrees__section" aria-label="Worktrees to clean up">
            <h3>Worktrees to clean up</h3>
            {leftovers.length === 0 ? (
              <p className="worktrees__empty">Nothing to clean up: every worktree here belongs to a session.</p>
            ) : (
              <ul className="worktrees__list">
                {leftovers.map((row) => {
                  const loss = state.cleanupLoss[row.path]
                  return (
                    <li key={row.path} aria-label={`Worktree ${row.name}`}>
                      <span>
                        <strong>{row.name}</strong>
                        {row.branch && (
                          <>
                            {' '}
                            on <code>{row.branch}</code>
                          </>
                        )}{' '}
                        · {cleanupReason(row)}
                        <small className="worktrees__path">{row.path}</small>
                      </span>
                      {loss ? (
                        <>
                          <LossDetails loss={loss} label={`What removing ${row.name} would lose`} />
                          <button type="button" className="button button--small button--danger" disabled={state.busy !== null} onClick={() => void state.cleanup(projectPath, row.path, true).then(removed)}>
                            Remove {row.name} anyway, losing {loss.summary}
                          </button>
                        </>
                      ) : (
                        <button type="button" className="button button--small" disabled={state.busy !== null} onClick={() => void state.cleanup(projectPath, row.path, false).then(removed)}>
                          Remove {row.name}
                        </button>
                      )}
                    </li>
                  )
                })}
              </ul>
            )}
          </section>
        </div>
      )}
    </Dialog>
  )
}
