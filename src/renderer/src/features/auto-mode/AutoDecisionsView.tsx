import { useEffect } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { useAutoDecisions } from './store'
import './auto-mode.css'

/**
 * The decision log of auto mode: every call its classifier judged in this session, newest first,
 * with the reason, the time it took and the model; "Ask me next time" turns a call's pattern back
 * into a prompt (for the session, or for every session of the project). Opened from the palette
 * and `/auto-decisions`.
 */
export function AutoDecisionsView({ sessionId, onClose }: { sessionId: string | null; onClose(): void }) {
  const { decisions, loading, error, said, load, askNextTime, clear } = useAutoDecisions()

  useEffect(() => {
    if (sessionId) void load(sessionId)
    else clear()
  }, [sessionId, load, clear])

  const newestFirst = [...decisions].reverse()
  return (
    <Dialog label="Auto-mode decisions" className="auto-decisions" onClose={onClose} initialFocus="button">
      <DialogHeader title="Auto-mode decisions" onClose={onClose}>
        <span className="status" role="status">
          {loading ? 'Loading…' : (said ?? '')}
        </span>
      </DialogHeader>
      <div className="auto-decisions__body">
        <p className="auto-decisions__intro">
          In auto mode a classifier judges the calls no permission rule decides, against what you asked for: it allows them or asks you. Deny and ask rules, protected paths, hooks, commands that need review and the
          sandbox still decide first.
        </p>
        {!sessionId && <p>Start a conversation to see auto mode's decisions.</p>}
        {error && (
          <p className="pane__error" role="alert">
            {error}
          </p>
        )}
        {sessionId && !loading && decisions.length === 0 && <p>No decisions yet in this session.</p>}
        {newestFirst.length > 0 && (
          <ul className="auto-decisions__list" aria-label="Decisions of auto mode, newest first">
            {newestFirst.map((decision) => (
              <li key={decision.id} className={`auto-decisions__item auto-decisions__item--${decision.decision}`} aria-label={`${decision.decision === 'allow' ? 'Allowed' : 'Asked'}: ${decision.summary}`}>
                <div className="auto-decisions__head">
                  <span className={`badge badge--${decision.decision === 'allow' ? 'done' : 'awaiting_approval'}`}>{decision.decision === 'allow' ? 'Allowed' : 'Asked you'}</span>
                  <code className="auto-decisions__call">{decision.summary}</code>
                  <span className="auto-decisions__meta">
                    {new Date(decision.at).toLocaleTimeString()} · {decision.durationMs} ms · {decision.model}
                  </span>
                </div>
                <p className="auto-decisions__reason">{decision.reason}</p>
                <div className="auto-decisions__actions">
                  {decision.askNextTime ? (
                    <span>
                      <code>{decision.pattern}</code> asks you {decision.askNextTime === 'session' ? 'for the rest of this session' : 'in this project'}.
                    </span>
                  ) : (
                    <>
                      <span>
                        Pattern <code>{decision.pattern}</code>:
                      </span>
                      <button type="button" className="button button--small" aria-label={`Ask me next time: ${decision.pattern} (this session)`} onClick={() => void askNextTime(decision, 'session')}>
                        Ask me next time
                      </button>
                      <button type="button" className="button button--small" aria-label={`Ask me next time: ${decision.pattern} (this project)`} onClick={() => void askNextTime(decision, 'project')}>
                        …in this project
                      </button>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  )
}
