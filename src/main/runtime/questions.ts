import type { ApprovalAsker } from '../governance/approvals/queue'
import type { QuestionOutcome, UserQuestion, UserQuestions } from '../tools/question-types'

/**
 * AskUserQuestion's line to the user: the session's answerer (its approval queue, shown as a
 * question card; or the unattended answerer of `sous -p`), the same plumbing every ask and every
 * plan goes through. The card answers with `answers` (see the `approval.reply` contract).
 */
export function questionsThrough(approvals: ApprovalAsker, sessionId: string): UserQuestions {
  return {
    get attended() {
      return approvals.attended
    },
    async ask(questions: UserQuestion[], toolUseId: string, signal: AbortSignal): Promise<QuestionOutcome> {
      if (!approvals.attended) return { outcome: 'unattended' }
      const outcome = await approvals.request({
        sessionId,
        toolUseId,
        toolName: 'AskUserQuestion',
        input: { questions },
        preview: { kind: 'questions', questions },
        explanation: { kind: 'default', detail: 'the agent has questions for you' },
        suggestions: [],
        signal,
      })
      if (outcome.behavior === 'deny') {
        const declined = outcome.reason === 'rejected' ? `The user declined to answer the questions${outcome.feedback ? `: ${outcome.feedback}` : '.'} Go on without these answers, or ask in your reply.` : outcome.message
        return { outcome: 'declined', message: declined }
      }
      return { outcome: 'answered', answers: outcome.answers ?? {} }
    },
  }
}
