import { useEffect, useState } from 'react'
import type { ApprovalRequested, RequestInput, RequestOutput } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { RejectReason } from './RejectReason'

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
  // Every rule "always" or "this session" saves (one per subcommand of a compound command), as it will be saved.
  const [rules, setRules] = useState<string[]>(() => [...request.suggestions])
  const [message, setMessage] = useState('')
  const canRemember = request.suggestions.length > 0
  const kept = rules.map((rule) => rule.trim()).filter((rule) => rule !== '')
  const edited = kept.length !== request.suggestions.length || kept.some((rule, index) => rule !== request.suggestions[index])
  const withRule = edited && kept.length > 0 ? { rules: kept } : {}
  const check = useRuleCheck(request.id, canRemember ? kept : [])
  const ruleUnusable = canRemember && (kept.length === 0 || check?.ok === false)
  return (
    <div className="approval__choices">
      {canRemember &&
        rules.map((rule, index) => (
          <label className="approval__rule" key={index}>
            <span>{rules.length > 1 ? `Rule ${index + 1} of ${rules.length} to remember` : 'Rule to remember'}</span>
            <input
              className="field"
              aria-label={rules.length > 1 ? `Rule ${index + 1} of ${rules.length} to remember` : 'Rule to remember'}
              value={rule}
              onChange={(event) => setRules(rules.map((old, at) => (at === index ? event.target.value : old)))}
              spellCheck={false}
              aria-invalid={check?.ok === false}
            />
          </label>
        ))}
      {canRemember && check && <RuleMatches check={check} />}
      <div className="approval__actions">
        <RejectReason value={message} onChange={setMessage} />
        <button type="button" className="button" data-approval-action="reject" disabled={busy} onClick={() => onReply({ id: request.id, decision: 'reject', ...(message.trim() ? { message: message.trim() } : {}) })}>
          Reject
        </button>
        {canRemember && (
          <>
            <button type="button" className="button" disabled={busy || ruleUnusable} onClick={() => onReply({ id: request.id, decision: 'allow_always', ...withRule })}>
              Always
            </button>
            <button type="button" className="button" disabled={busy || ruleUnusable} onClick={() => onReply({ id: request.id, decision: 'allow_session', ...withRule })}>
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

type RuleCheck = RequestOutput<'approval.checkRule'>

/** Asks the host what the rules would allow, a moment after the user stops typing. */
function useRuleCheck(id: string, rules: readonly string[]): RuleCheck | undefined {
  const key = rules.join('\n')
  const [check, setCheck] = useState<RuleCheck>()
  useEffect(() => {
    if (!key) {
      setCheck(undefined)
      return
    }
    const list = key.split('\n')
    let current = true
    const timer = setTimeout(() => {
      void api.invoke('approval.checkRule', { id, rule: list[0]!, ...(list.length > 1 && { rules: list }) }).then((result) => {
        if (current) setCheck(result.ok ? result.value : undefined)
      })
    }, 150)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [id, key])
  return check
}

/** "Would allow: npm test ✓ · Would still ask: rm -rf build". */
function RuleMatches({ check }: { check: RuleCheck }) {
  if (!check.ok) {
    return (
      <p className="approval__rule-check approval__rule-check--bad" role="alert">
        This rule cannot be used: {check.error}
      </p>
    )
  }
  return (
    <p className="approval__rule-check" data-testid="rule-check">
      {check.matches.length > 0 && (
        <span>
          Would allow: {check.matches.map((m, i) => (
            <code key={i}>{m}</code>
          ))}
        </span>
      )}
      {check.misses.length > 0 && (
        <span className="approval__rule-misses">
          {' '}Would still ask for: {check.misses.map((m, i) => (
            <code key={i}>{m}</code>
          ))}
        </span>
      )}
      {check.error && <span> ({check.error})</span>}
    </p>
  )
}
