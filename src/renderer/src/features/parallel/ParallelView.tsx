import { useCallback, useEffect, useState } from 'react'
import type { ParallelSession } from '../../../../shared/ipc/contract'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { CompareMatrix } from './CompareMatrix'
import { MergePanel } from './MergePanel'
import { RunForm } from './RunForm'
import { SessionActionsPanel } from './SessionActionsPanel'
import { SessionCards, formatCost } from './SessionCards'
import { SessionDiff } from './SessionDiff'
import { usePickCount, useParallel } from './store'
import './parallel.css'

/**
 * Parallel sessions: Run on N (one prompt in N new worktree sessions, the same or different
 * models), the run's sessions side by side with their state, cost and changed files, the compare
 * view (files × sessions, each diff against the fork point, the user's test command in every
 * worktree), and the merge of picked hunks into the base checkout. Opened from the palette and
 * `/parallel`.
 */
export function ParallelView({ projectPath, onOpenSession, onClose }: { projectPath: string | null; onOpenSession(sessionId: string, projectPath: string): void; onClose(): void }) {
  const state = useParallel()
  const picked = usePickCount()
  const [selected, setSelected] = useState<string | null>(null)
  const { load, show, test } = state
  // Stable callbacks: the cards and the compare table (memo) are drawn again only when their rows
  // change, not at every busy line.
  const onShow = useCallback((sessionId: string, path: string) => void show(sessionId, path), [show])
  const onTest = useCallback((command: string) => void test(command), [test])
  const onSelect = useCallback((id: string) => setSelected((now) => (now === id ? null : id)), [])
  useEffect(() => {
    if (projectPath) void load(projectPath)
  }, [projectPath, load])
  const run = state.run
  const shownSession = run?.sessions.find((session) => session.sessionId === state.shown?.sessionId)
  const actionsOf = run?.sessions.find((session) => session.sessionId === selected)
  const open = useCallback(
    (session: ParallelSession) => {
      onClose()
      onOpenSession(session.sessionId, session.worktree)
    },
    [onClose, onOpenSession],
  )

  return (
    <Dialog label="Parallel sessions" className="dialog parallel-dialog" onClose={onClose} initialFocus=".parallel-form textarea">
      <DialogHeader title="Parallel sessions" onClose={onClose}>
        <span className="status" role="status">
          {state.busy ?? state.done ?? ''}
        </span>
      </DialogHeader>
      {!projectPath ? (
        <p className="parallel__empty">Open a project (a git repository) to run sessions in parallel.</p>
      ) : (
        <div className="parallel__body">
          <aside className="parallel__side">
            <RunForm disabled={state.busy !== null} onStart={(prompt, models) => void state.start(prompt, models)} />
            <nav aria-label="Runs">
              <ol className="parallel-runs">
                {state.runs.map((item) => (
                  <li key={item.runId}>
                    <button type="button" className="parallel-runs__item" aria-current={item.runId === run?.runId ? 'true' : undefined} onClick={() => void state.select(item.runId)}>
                      <span className="parallel-runs__prompt">{item.prompt}</span>
                      <small>
                        {item.sessions.map((session) => session.model).join(' · ')} · {formatCost(item.sessions.reduce((sum, session) => sum + session.costUsd, 0))}
                      </small>
                    </button>
                  </li>
                ))}
              </ol>
            </nav>
          </aside>
          <div className="parallel__main">
            {state.error && (
              <p className="pane__error" role="alert">
                {state.error}
              </p>
            )}
            {!run && <p className="parallel__empty">No run yet: write a prompt and start it in several worktree sessions at once.</p>}
            {run && (
              <>
                <SessionCards run={run} selected={selected} onSelect={onSelect} onOpen={open} onShowFile={onShow} />
                {actionsOf && <SessionActionsPanel runId={run.runId} session={actionsOf} onChanged={() => void state.refresh(run.runId)} />}
                <CompareMatrix run={run} shown={state.shown} tests={state.tests} busy={state.busy !== null} onShow={onShow} onTest={onTest} />
                {state.diff && shownSession && state.shown && (
                  <SessionDiff
                    key={`${state.shown.sessionId}\0${state.shown.path}`}
                    diff={state.diff}
                    session={shownSession.name}
                    pick={state.picks[shownSession.sessionId]?.[state.diff.path]}
                    disabled={state.busy !== null}
                    onHunk={(index, decision) => state.pickHunk(shownSession.sessionId, state.diff!.path, index, decision)}
                    onFile={(pick) => state.pickFile(shownSession.sessionId, state.diff!.path, pick)}
                  />
                )}
                <MergePanel
                  run={run}
                  picked={picked}
                  plan={state.plan}
                  resolutions={state.resolutions}
                  confirmDirty={state.confirmDirty}
                  busy={state.busy !== null}
                  onPreview={() => void state.preview()}
                  onResolve={state.resolve}
                  onConfirm={state.confirm}
                  onApply={() => void state.apply()}
                />
              </>
            )}
          </div>
        </div>
      )}
    </Dialog>
  )
}
