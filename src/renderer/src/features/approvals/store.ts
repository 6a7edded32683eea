import { create } from 'zustand'
import type { ApprovalRequested, RequestInput } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { removeApproval } from '../../state/approvals'
import { describeRequest } from './describe'
import { notifyIfAway } from './notify'

/**
 * The answering side of approvals: which requests are being answered and why an answer failed.
 * The pending requests themselves are a cross-feature fact and live in `state/approvals.ts`.
 */
export interface ApprovalAnswers {
  /** Ids being answered (buttons disabled meanwhile). */
  answering: ReadonlySet<string>
  /** Why the last answer failed, per request. */
  errors: Readonly<Record<string, string>>
  /** Sends the user's answer; false when the host refused it (the error is kept for the card). */
  reply(input: RequestInput<'approval.reply'>): Promise<boolean>
}

export const useApprovalAnswers = create<ApprovalAnswers>()((set, get) => ({
  answering: new Set(),
  errors: {},

  async reply(input) {
    if (get().answering.has(input.id)) return false
    set({ answering: new Set([...get().answering, input.id]) })
    const result = await api.invoke('approval.reply', input)
    const answering = new Set(get().answering)
    answering.delete(input.id)
    if (result.ok) {
      const { [input.id]: _dropped, ...errors } = get().errors
      set({ answering, errors })
      removeApproval(input.id)
      return true
    }
    // CONFLICT: allowed once but the rule was not saved; the request is settled all the same.
    const settled = result.error.code === 'CONFLICT' || result.error.code === 'NOT_FOUND'
    set({ answering, errors: { ...get().errors, [input.id]: result.error.message } })
    if (settled) removeApproval(input.id)
    return false
  },
}))

/** A new request: a system notification when the window is in the background (fed by the event feed). */
export function notifyApproval(request: ApprovalRequested): void {
  notifyIfAway('Sous needs your approval', describeRequest(request), request.id)
}
