import { randomBytes } from 'node:crypto'
import type { ApprovalAsker, ApprovalOutcome, ApprovalRequest } from '../../governance/approvals/queue'
import type { SessionGrants } from '../../governance/decide/session'
import type { ProtocolMessage } from '../../store/teams/messages'
import { LEAD_NAME } from '../../store/teams/team-file'

type PermissionResponse = Extract<ProtocolMessage, { type: 'permission_response' }>
type Request = Parameters<ApprovalAsker['request']>[0]

/** A teammate's ask on its way to the lead, and what its answer settles. */
interface PendingAsk {
  member: string
  grants: SessionGrants
  settle(outcome: ApprovalOutcome): void
}

/**
 * A teammate's permission asks, bubbled to the lead through the mailboxes (Claude Code's
 * `permission_request` / `permission_response`): the teammate's gate asks through
 * {@link askerFor}, which writes the request into the lead's mailbox and waits for the answer in
 * the teammate's own. Only an answer from the lead settles an ask, and only the ask of the member
 * it was sent to: another teammate can never answer it.
 * Contract: every ask settles exactly once (the answer, its signal's abort, or {@link abortAll}).
 */
export class BubbledAsks {
  private readonly pending = new Map<string, PendingAsk>()

  constructor(private readonly o: { attended: boolean; post(member: string, request: Extract<ProtocolMessage, { type: 'permission_request' }>): Promise<void> }) {}

  /** The approval asker of one teammate: its gate's asks go to the lead. */
  askerFor(member: string, grants: SessionGrants): ApprovalAsker {
    return { attended: this.o.attended, sessionGrants: grants, request: (request) => this.bubble(member, request, grants) }
  }

  /** The grants of the teammate whose ask this is ("allow for this session" lands there). */
  grantsOf(requestId: string, member: string): SessionGrants | undefined {
    const ask = this.pending.get(requestId)
    return ask?.member === member ? ask.grants : undefined
  }

  /**
   * A `permission_response` arrived in `member`'s mailbox from `from`. True when it settled one of
   * that member's asks; false (ignored) when it came from anyone but the lead or matches no ask of theirs.
   */
  answer(member: string, from: string, response: PermissionResponse): boolean {
    const ask = this.pending.get(response.request_id)
    if (from !== LEAD_NAME || !ask || ask.member !== member) return false
    this.pending.delete(response.request_id)
    ask.settle(outcomeOf(response))
    return true
  }

  /** Settles every ask as aborted (the team or the session ends). */
  abortAll(): void {
    for (const [id, ask] of this.pending) {
      this.pending.delete(id)
      ask.settle({ behavior: 'deny', reason: 'aborted', message: 'The team ended before the lead answered.' })
    }
  }

  private async bubble(member: string, request: Request, grants: SessionGrants): Promise<ApprovalOutcome> {
    const id = `perm-${Date.now()}-${randomBytes(4).toString('hex')}`
    const { signal } = request
    if (signal?.aborted) return { behavior: 'deny', reason: 'aborted', message: 'The call was stopped before it was asked about.' }
    const answered = new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = (): void => {
        if (this.pending.delete(id)) resolve({ behavior: 'deny', reason: 'aborted', message: 'The call was stopped while the lead was asked.' })
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.pending.set(id, {
        member,
        grants,
        settle: (outcome) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(outcome)
        },
      })
    })
    try {
      await this.o.post(member, {
        type: 'permission_request',
        request_id: id,
        agent_id: member,
        tool_name: request.toolName,
        ...(request.toolUseId !== undefined && { tool_use_id: request.toolUseId }),
        description: `${member} wants to use ${request.toolName}`,
        input: request.input,
        permission_suggestions: request.suggestions ?? [],
        ...(request.preview !== undefined && { preview: request.preview }),
        explanation: request.explanation,
      })
    } catch (error) {
      this.pending.delete(id)
      return { behavior: 'deny', reason: 'rejected', message: `The ask could not reach the team lead: ${error instanceof Error ? error.message : String(error)}` }
    }
    return answered
  }
}

/** The teammate's outcome from the lead's answer (Sous's own `outcome` when it carries one). */
function outcomeOf(response: PermissionResponse): ApprovalOutcome {
  const carried = response.outcome as ApprovalOutcome | undefined
  if (carried && typeof carried === 'object' && (carried.behavior === 'allow' || carried.behavior === 'deny')) return carried
  if (response.subtype === 'success') return { behavior: 'allow', scope: 'once', rules: (response.response?.permission_updates ?? []).filter((rule): rule is string => typeof rule === 'string') }
  return { behavior: 'deny', reason: 'rejected', message: response.error ?? 'Permission denied' }
}

/** The request the lead puts in the user's queue for a teammate's ask. */
export type LeadAsk = Omit<ApprovalRequest, 'id' | 'suggestions'> & { suggestions: string[] }
