import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk'
import type { ApprovalRequested } from '../../../shared/ipc/approval'
import type { RequestInput } from '../../../shared/ipc/contract'
import { previewContent, toolKind, toolLocations, toolTitle } from './tool-calls'

/**
 * Sous's approval queue asked the user about a call (its rules, mode and hooks did not decide
 * it): the same question as an ACP `session/request_permission`, and the client's answer as an
 * `approval.reply`. The options are what the approval card offers: once, for this session or
 * always with the suggested rules (only when there are rules to save), and reject. Nothing the
 * client answers can do more than the card could: "always" saves exactly the suggested rules.
 */

/** The `session/request_permission` for one pending approval. */
export function permissionRequest(approval: ApprovalRequested): RequestPermissionRequest {
  const options: PermissionOption[] = []
  const question = singleQuestion(approval)
  if (question) {
    question.options.forEach((option, index) => options.push({ optionId: `answer:${index}`, name: option.label, kind: 'allow_once' }))
  } else if (approval.preview?.kind !== 'questions') {
    // Several questions or a multi-select cannot be answered with one option: only Reject is offered.
    options.push({ optionId: 'allow_once', name: approval.preview?.kind === 'plan' ? 'Approve the plan' : 'Allow once', kind: 'allow_once' })
    if (approval.suggestions.length > 0) {
      const rules = approval.suggestions.join(', ')
      options.push({ optionId: 'allow_session', name: `Allow for this session: ${rules}`, kind: 'allow_always' })
      options.push({ optionId: 'allow_always', name: `Always allow: ${rules} (saved in .claude/settings.local.json)`, kind: 'allow_always' })
    }
  }
  options.push({ optionId: 'reject', name: 'Reject', kind: 'reject_once' })
  return {
    sessionId: approval.sessionId,
    toolCall: {
      toolCallId: approval.toolUseId,
      title: `${toolTitle(approval.toolName, approval.input)} — ${approval.explanation.text}`,
      kind: toolKind(approval.toolName),
      status: 'pending',
      rawInput: approval.input,
      content: previewContent(approval.preview),
      locations: toolLocations(approval.input),
    },
    options,
  }
}

/**
 * The `approval.reply` for the client's answer. A cancelled request (the client's own cancel, or
 * an answer naming no offered option) is a rejection, never an allow.
 */
export function approvalReply(approval: ApprovalRequested, response: RequestPermissionResponse | undefined): RequestInput<'approval.reply'> {
  const reject = (message?: string): RequestInput<'approval.reply'> => ({ id: approval.id, decision: 'reject', ...(message && { message }) })
  if (!response || response.outcome.outcome !== 'selected') return reject()
  const chosen = response.outcome.optionId
  const question = singleQuestion(approval)
  if (question) {
    const label = /^answer:(\d+)$/.exec(chosen)?.[1]
    const option = label === undefined ? undefined : question.options[Number(label)]
    return option ? { id: approval.id, decision: 'allow_once', answers: { [question.question]: option.label } } : reject()
  }
  if (approval.preview?.kind === 'questions') return reject('The question could not be answered from the editor.')
  if (chosen === 'allow_once') return { id: approval.id, decision: 'allow_once' }
  if ((chosen === 'allow_session' || chosen === 'allow_always') && approval.suggestions.length > 0) return { id: approval.id, decision: chosen }
  return reject()
}

/** AskUserQuestion with one single-choice question: its options become the permission options. */
function singleQuestion(approval: ApprovalRequested): { question: string; options: Array<{ label: string }> } | undefined {
  const preview = approval.preview
  if (preview?.kind !== 'questions' || preview.questions.length !== 1) return undefined
  const [question] = preview.questions
  return question && !question.multiSelect ? question : undefined
}
