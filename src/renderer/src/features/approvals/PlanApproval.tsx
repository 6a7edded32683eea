import { useState } from 'react'
import type { RequestInput } from '../../../../shared/ipc/contract'
import { Markdown } from '../../lib/markdown/Markdown'
import './plan-card.css'

export interface PlanApprovalProps {
  /** The approval's id (what the reply answers). */
  id: string
  /** The plan as the agent wrote it (Markdown). */
  plan: string
  /** Where the agent's plan was saved, if it was. */
  filePath?: string
  busy: boolean
  onReply(input: RequestInput<'approval.reply'>): void
  /** Shows the saved plan file in the read-only viewer; resolves to an error message or null. */
  onOpenFile?(): Promise<string | null>
}

/**
 * ExitPlanMode's card: the plan rendered as Markdown (raw HTML shown as text, only http(s) links),
 * editable before it is approved. "Approve and auto-accept edits" ends plan mode in `acceptEdits`,
 * "Approve, ask for each edit" in `default` (the `y` shortcut: the careful one); "Keep planning"
 * (`n`) sends the feedback to the agent word for word and plan mode stays on. An edited plan goes
 * with the approval, and the agent follows that text.
 */
export function PlanApproval({ id, plan, filePath, busy, onReply, onOpenFile }: PlanApprovalProps) {
  const [text, setText] = useState(plan)
  const [editing, setEditing] = useState(false)
  const [feedback, setFeedback] = useState('')
  const [fileProblem, setFileProblem] = useState<string | null>(null)
  const edited = text.trimEnd() !== plan.trimEnd()
  const empty = text.trim() === ''
  const approve = (planMode: 'acceptEdits' | 'default') => onReply({ id, decision: 'allow_once', planMode, ...(edited && { plan: text }) })

  return (
    <div className="plan-card">
      <div className="plan-card__toolbar">
        <button type="button" className="button button--small" aria-pressed={editing} onClick={() => setEditing((current) => !current)}>
          {editing ? 'Preview' : 'Edit the plan'}
        </button>
        {edited && (
          <>
            <span className="plan-card__edited" role="status">
              Edited: the agent will follow your version
            </span>
            <button type="button" className="button button--small button--quiet" onClick={() => setText(plan)}>
              Undo my edits
            </button>
          </>
        )}
        {filePath && onOpenFile && (
          <button
            type="button"
            className="button button--small button--quiet plan-card__file"
            title={filePath}
            onClick={() => void onOpenFile().then(setFileProblem)}
          >
            Open the plan file
          </button>
        )}
      </div>
      {fileProblem && (
        <p className="pane__error" role="alert">
          {fileProblem}
        </p>
      )}
      {editing ? (
        <textarea className="field plan-card__editor" aria-label="Plan (Markdown)" value={text} spellCheck onChange={(event) => setText(event.target.value)} />
      ) : (
        <div className="plan-card__plan" role="document" aria-label="Plan">
          <Markdown text={text} />
        </div>
      )}
      <div className="plan-card__feedback">
        <textarea
          className="field plan-card__message"
          aria-label="Feedback for the agent (sent with Keep planning)"
          placeholder="What should the plan do differently? (sent to the agent with Keep planning)"
          rows={2}
          value={feedback}
          onChange={(event) => setFeedback(event.target.value)}
        />
      </div>
      <div className="approval__actions">
        <button type="button" className="button" data-approval-action="reject" disabled={busy} onClick={() => onReply({ id, decision: 'reject', ...(feedback.trim() && { message: feedback.trim() }) })}>
          Keep planning
        </button>
        <button type="button" className="button" disabled={busy || empty} onClick={() => approve('acceptEdits')}>
          Approve and auto-accept edits
        </button>
        <button type="button" className="button button--primary" data-approval-action="approve" disabled={busy || empty} onClick={() => approve('default')}>
          Approve, ask for each edit
        </button>
      </div>
    </div>
  )
}
