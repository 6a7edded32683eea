import type { ApprovalOutcome as WireOutcome, ApprovalPreview, ApprovalRequested } from '../../../shared/ipc/contract'
import { AppError } from '../../../shared/ipc/result'
import type { EventHub } from '../../base/event-hub'
import type { ApprovalOutcome, ApprovalQueue, ApprovalReply, ApprovalRequest } from '../../governance/approvals/queue'
import { checkRule } from '../../governance/approvals/check-rule'
import { parseRule } from '../../governance/rules/parse'
import { describeExplanation } from '../../governance/types'
import type { Handlers } from '../router'

/** One live session's approval queue. */
export interface SessionQueue {
  sessionId: string
  queue: ApprovalQueue
}

/** What the approval handlers need: every live session's queue. */
export interface ApprovalHandlerDeps {
  queues(): Iterable<SessionQueue>
}

/**
 * The `approval.*` request handlers: the UI lists pending approvals and answers them.
 * An edited rule must parse before anything is written; an unknown id is NOT_FOUND; a rule that
 * could not be saved is CONFLICT (the call itself was still allowed once).
 */
export function approvalHandlers(deps: ApprovalHandlerDeps): Pick<Handlers, 'approval.reply' | 'approval.list' | 'approval.checkRule'> {
  return {
    'approval.checkRule': ({ id, rule }) => {
      const request = [...deps.queues()].map((q) => q.queue.get(id)).find((r) => r !== undefined)
      if (!request) throw new AppError('NOT_FOUND', `No pending approval ${id} (it may have been answered or cancelled).`)
      return checkRule(request, rule)
    },
    'approval.reply': ({ id, decision, rule, destination, message, finalContent, hunks, plan, planMode }) => {
      const owner = [...deps.queues()].find((q) => q.queue.get(id) !== undefined)
      if (!owner) throw new AppError('NOT_FOUND', `No pending approval ${id} (it may have been answered or cancelled).`)
      const isPlan = owner.queue.get(id)?.preview?.kind === 'plan'
      if ((plan !== undefined || planMode !== undefined) && !isPlan) throw new AppError('INVALID_INPUT', 'plan and planMode answer a plan approval only.')
      if (isPlan && decision !== 'allow_once' && decision !== 'reject') {
        throw new AppError('INVALID_INPUT', 'A plan is approved once (allow_once) or sent back (reject); there is no rule to save.')
      }
      if (rule !== undefined && (decision === 'allow_session' || decision === 'allow_always')) {
        const parsed = parseRule(rule)
        if (!parsed.ok) throw new AppError('INVALID_INPUT', `The rule ${JSON.stringify(rule)} cannot be used: ${parsed.error}`)
      }
      const rules = rule !== undefined ? [rule] : undefined
      if (finalContent !== undefined && decision !== 'allow_once') {
        throw new AppError('INVALID_INPUT', 'Edited content can only be approved once (decision allow_once).')
      }
      const edit = finalContent !== undefined ? { finalContent, hunks: hunks ?? [] } : undefined
      const approvedPlan = isPlan ? { ...(plan !== undefined ? { text: plan } : {}), ...(planMode ? { mode: planMode } : {}) } : undefined
      const reply: ApprovalReply =
        decision === 'allow_once'
          ? { kind: 'allow_once', ...(edit ? { edit } : {}), ...(approvedPlan ? { plan: approvedPlan } : {}) }
          : decision === 'allow_session'
            ? { kind: 'allow_session', ...(rules ? { rules } : {}) }
            : decision === 'allow_always'
              ? { kind: 'allow_always', ...(rules ? { rules } : {}), ...(destination ? { destination } : {}) }
              : { kind: 'reject', ...(message !== undefined ? { message } : {}) }
      const problem = owner.queue.resolve(id, reply)
      if (problem) throw new AppError('CONFLICT', `Allowed this once, but the rule was not saved: ${problem}`)
    },
    'approval.list': ({ sessionId }) => {
      const out: ApprovalRequested[] = []
      for (const q of deps.queues()) {
        if (sessionId !== undefined && q.sessionId !== sessionId) continue
        for (const r of q.queue.pending()) out.push(toWire(r, q.sessionId))
      }
      return out
    },
  }
}

/**
 * Forwards a session's approvals to the UI: `approval.requested` when a request appears,
 * `approval.resolved` when it settles. Returns the function that stops forwarding.
 */
export function forwardApprovals(queue: ApprovalQueue, events: EventHub, sessionId: string): () => void {
  const shown = new Set<string>()
  const offPending = queue.subscribe((pending) => {
    for (const r of pending) {
      if (shown.has(r.id)) continue
      shown.add(r.id)
      events.emit('approval.requested', toWire(r, sessionId))
    }
  })
  const offSettled = queue.onSettled((r, outcome) => {
    shown.delete(r.id)
    events.emit('approval.resolved', { id: r.id, sessionId: r.sessionId ?? sessionId, outcome: outcomeOf(outcome), ...resolvedExtras(outcome) })
  })
  return () => {
    offPending()
    offSettled()
  }
}

/** A registry of live sessions' queues, for {@link approvalHandlers}; `add` also starts forwarding. */
export class ApprovalQueues implements ApprovalHandlerDeps {
  private readonly bySession = new Map<string, ApprovalQueue>()

  constructor(private readonly events?: EventHub) {}

  /** Registers a session's queue; the returned function unregisters it (and stops forwarding). */
  add(sessionId: string, queue: ApprovalQueue): () => void {
    this.bySession.set(sessionId, queue)
    const stop = this.events ? forwardApprovals(queue, this.events, sessionId) : () => {}
    return () => {
      stop()
      if (this.bySession.get(sessionId) === queue) this.bySession.delete(sessionId)
    }
  }

  *queues(): Iterable<SessionQueue> {
    for (const [sessionId, queue] of this.bySession) yield { sessionId, queue }
  }
}

function toWire(r: ApprovalRequest, sessionId: string): ApprovalRequested {
  return {
    id: r.id,
    sessionId: r.sessionId ?? sessionId,
    toolUseId: r.toolUseId ?? '',
    toolName: r.toolName,
    input: r.input,
    ...(r.preview ? { preview: r.preview as ApprovalPreview } : {}),
    explanation: { kind: r.explanation.kind, text: describeExplanation(r.explanation) },
    suggestions: r.suggestions,
  }
}

function outcomeOf(o: ApprovalOutcome): WireOutcome {
  if (o.behavior === 'allow') return o.scope === 'once' ? 'allowed_once' : o.scope === 'session' ? 'allowed_session' : 'allowed_always'
  return o.reason === 'rejected' ? 'rejected' : o.reason === 'aborted' ? 'aborted' : 'headless'
}

function resolvedExtras(o: ApprovalOutcome): { rules?: string[]; warning?: string } {
  if (o.behavior !== 'allow') return {}
  return { ...(o.rules.length ? { rules: o.rules } : {}), ...(o.warning ? { warning: o.warning } : {}) }
}
