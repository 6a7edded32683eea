import { useState } from 'react'
import type { ApprovalRequested, RequestInput } from '../../../../shared/ipc/contract'

interface ApprovalChoicesProps {
  request: ApprovalRequested
  busy: boolean
  onReply(input: RequestInput<'approval.reply'>): void
}

/**
 * Once / this session / always (with the rule it would save, editable) / reject with a message.
 * When no rule can help (a protected path, a command that cannot be analysed) only once and reject
 * are offered: promising "always" would be a lie.
 */
export function ApprovalChoices({ request, busy, onReply }: ApprovalChoicesProps) {
  const [rule, setRule] = useState(request.suggestions[0] ?? '')
  const [message, setMessage] = useState('')
  const canRemember = request.suggestions.length > 0
  const edited = rule.trim() !== '' && rule.trim() !== request.suggestions[0]
  const withRule = edited ? { rule: rule.trim() } : {}
  return (
    <div className="approval__choices">
      {canRemember && (
        <label className="approval__rule">
          <span>Rule to remember</span>
          <input className="field" aria-label="Rule to remember" value={rule} onChange={(event) => setRule(event.target.value)} spellCheck={false} />
        </label>
      )}
      <div className="approval__actions">
        <input
          className="field approval__message"
          aria-label="Reason for rejecting (sent to the agent)"
          placeholder="Why not? (optional, sent to the agent)"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
        <button type="button" className="button" data-approval-action="reject" disabled={busy} onClick={() => onReply({ id: request.id, decision: 'reject', ...(message.trim() ? { message: message.trim() } : {}) })}>
          Reject
        </button>
        {canRemember && (
          <>
            <button type="button" className="button" disabled={busy} onClick={() => onReply({ id: request.id, decision: 'allow_always', ...withRule })}>
              Always
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => onReply({ id: request.id, decision: 'allow_session', ...withRule })}>
              This session
            </button>
          </>
        )}
        <button type="button" className="button button--primary" data-approval-action="approve" disabled={busy} onClick={() => onReply({ id: request.id, decision: 'allow_once' })}>
          Allow once
        </button>
      </div>
    </div>
  )
}
