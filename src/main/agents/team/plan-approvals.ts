import type { PermissionModeName } from '../../../shared/ipc/contract'
import type { PlanOutcome } from '../../tools/types'

interface Pending {
  member: string
  plan: string
  filePath?: string
  settle(outcome: PlanOutcome): void
}

/** What a teammate's plan approval request is written as (Claude Code 2.1.328's fields). */
export interface PlanApprovalRequest {
  type: 'plan_approval_request'
  from: string
  timestamp: string
  planFilePath: string
  planContent: string
  requestId: string
}

/**
 * The plan approvals a team's teammates wait for (Claude Code's design): a teammate's ExitPlanMode
 * writes a `plan_approval_request` into the lead's mailbox and waits here until the lead answers
 * with SendMessage's `plan_approval_response`. Only the lead's own call, in this process, settles
 * a request (the mailbox entry it also writes is the record, and what a Claude Code teammate
 * reads): a response found in a mailbox file never does, since anyone who can write the file could
 * otherwise take a teammate out of plan mode. Every request settles once — the lead's answer, the
 * call's abort, or the team's end.
 */
export class PlanApprovals {
  private readonly pending = new Map<string, Pending>()
  /** Requests the lead answered: their mailbox copy is not delivered again as a message. */
  private readonly answered = new Set<string>()

  /** Posts a teammate's plan and waits for the lead's answer. */
  async request(member: string, plan: string, requestId: string, post: (request: string) => Promise<void>, signal: AbortSignal, filePath?: string): Promise<PlanOutcome> {
    if (signal.aborted) return { outcome: 'aborted', message: 'The call was stopped before the plan was sent.' }
    let settle: (outcome: PlanOutcome) => void = () => {}
    const settled = new Promise<PlanOutcome>((resolve) => (settle = resolve))
    const onAbort = (): void => this.settle(requestId, { outcome: 'aborted', message: 'Stopped while waiting for the lead to approve the plan.' })
    this.pending.set(requestId, { member, plan, ...(filePath && { filePath }), settle })
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      await post(requestId)
    } catch (error) {
      this.settle(requestId, { outcome: 'aborted', message: `The plan approval request could not be written to the lead's mailbox (${error instanceof Error ? error.message : String(error)}); plan not submitted, try again.` })
    }
    try {
      return await settled
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  /** The request a member waits on now, if any. */
  pendingOf(member: string): string | undefined {
    for (const [id, pending] of this.pending) if (pending.member === member) return id
    return undefined
  }

  /** The lead's answer (its own SendMessage call): settles the request; false when `member` waits on no such request. */
  answer(member: string, requestId: string, approve: boolean, feedback: string | undefined, mode: PermissionModeName | undefined): boolean {
    const pending = this.pending.get(requestId)
    if (!pending || pending.member !== member) return false
    this.answered.add(requestId)
    const file = pending.filePath ? { filePath: pending.filePath } : {}
    this.settle(
      requestId,
      approve
        ? { outcome: 'approved', mode: mode ?? 'default', plan: pending.plan, edited: false, approver: 'The team lead', ...(feedback && { feedback }), ...file }
        : { outcome: 'keep_planning', approver: 'The team lead', ...(feedback && { feedback }), ...file },
    )
    return true
  }

  /** Whether a response in a mailbox file is the copy of an answer already given (then it is not delivered again). */
  wasAnswered(requestId: string): boolean {
    return this.answered.delete(requestId)
  }

  /** Whether someone waits on this request (a mailbox response for it that the lead did not give is forged). */
  isPending(requestId: string): boolean {
    return this.pending.has(requestId)
  }

  /** The team ended: nobody is left to answer. */
  abortAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { outcome: 'aborted', message: 'The team ended before the lead answered the plan.' })
  }

  private settle(requestId: string, outcome: PlanOutcome): void {
    const pending = this.pending.get(requestId)
    if (!pending) return
    this.pending.delete(requestId)
    pending.settle(outcome)
  }
}
