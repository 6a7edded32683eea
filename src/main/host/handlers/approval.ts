import type { ApprovalRequested } from '../../../shared/ipc/contract'
import { AppError } from '../../../shared/ipc/result'
import type { ApprovalReply } from '../../governance/approvals/queue'
import { checkRule } from '../../governance/approvals/check-rule'
import { parseRule } from '../../governance/rules/parse'
import { approvalOnWire, type ApprovalRegistry } from '../../governance/approvals/registry'
import type { Handlers } from '../router'

/** What the approval handlers need: every live session's queue (the session runtime's `approvals`). */
export type ApprovalHandlerDeps = ApprovalRegistry

/**
 * The `approval.*` request handlers: the UI lists pending approvals and answers them.
 * An edited rule must parse before anything is written; an unknown id is NOT_FOUND; a rule that
 * could not be saved is CONFLICT (the call itself was still allowed once).
 */
export function approvalHandlers(deps: ApprovalHandlerDeps): Pick<Handlers, 'approval.reply' | 'approval.list' | 'approval.checkRule'> {
  return {
    'approval.checkRule': ({ id, rule, rules }) => {
      const request = [...deps.queues()].map((entry) => entry.queue.get(id)).find((found) => found !== undefined)
      if (!request) throw new AppError('NOT_FOUND', `No pending approval ${id} (it may have been answered or cancelled).`)
      return checkRule(request, rules?.length ? rules : rule)
    },
    'approval.reply': ({ id, decision, rule, rules: edited, destination, message, finalContent, hunks, plan, planMode, answers }) => {
      const owner = [...deps.queues()].find((entry) => entry.queue.get(id) !== undefined)
      if (!owner) throw new AppError('NOT_FOUND', `No pending approval ${id} (it may have been answered or cancelled).`)
      const isPlan = owner.queue.get(id)?.preview?.kind === 'plan'
      if ((plan !== undefined || planMode !== undefined) && !isPlan) throw new AppError('INVALID_INPUT', 'plan and planMode answer a plan approval only.')
      if (isPlan && decision !== 'allow_once' && decision !== 'reject') {
        throw new AppError('INVALID_INPUT', 'A plan is approved once (allow_once) or sent back (reject); there is no rule to save.')
      }
      const isQuestions = owner.queue.get(id)?.preview?.kind === 'questions'
      if (answers !== undefined && !isQuestions) throw new AppError('INVALID_INPUT', 'answers answer a question card (AskUserQuestion) only.')
      if (isQuestions && (decision === 'allow_session' || decision === 'allow_always')) {
        throw new AppError('INVALID_INPUT', 'Questions are answered (allow_once with answers) or declined (reject); there is no rule to save.')
      }
      const rules = edited ?? (rule !== undefined ? [rule] : undefined)
      if (rules && (decision === 'allow_session' || decision === 'allow_always')) {
        for (const one of rules) {
          const parsed = parseRule(one)
          if (!parsed.ok) throw new AppError('INVALID_INPUT', `The rule ${JSON.stringify(one)} cannot be used: ${parsed.error}`)
        }
      }
      if (finalContent !== undefined && decision !== 'allow_once') {
        throw new AppError('INVALID_INPUT', 'Edited content can only be approved once (decision allow_once).')
      }
      const edit = finalContent !== undefined ? { finalContent, hunks: hunks ?? [] } : undefined
      const approvedPlan = isPlan ? { ...(plan !== undefined ? { text: plan } : {}), ...(planMode ? { mode: planMode } : {}) } : undefined
      const reply: ApprovalReply =
        decision === 'allow_once'
          ? { kind: 'allow_once', ...(edit ? { edit } : {}), ...(approvedPlan ? { plan: approvedPlan } : {}), ...(answers ? { answers } : {}) }
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
      for (const entry of deps.queues()) {
        if (sessionId !== undefined && entry.sessionId !== sessionId) continue
        for (const request of entry.queue.pending()) out.push(approvalOnWire(request, entry.sessionId))
      }
      return out
    },
  }
}
