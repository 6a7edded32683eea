import { create } from 'zustand'
import type { ApprovalRequested, RequestInput } from '../../../../shared/ipc/contract'
import { api, connection } from '../../api'
import { notifyIfAway } from './notify'
import { addRequest, describeRequest, mergeList, removeRequest, type ApprovalQueueState } from './queue'

/** Pending approvals of every session, kept in step with the host. */
export interface ApprovalsState {
  queue: ApprovalQueueState
  /** Ids being answered (buttons disabled meanwhile). */
  answering: ReadonlySet<string>
  /** Why the last answer failed, per request. */
  errors: Readonly<Record<string, string>>
  /** Sends the user's answer; false when the host refused it (the error is kept for the card). */
  reply(input: RequestInput<'approval.reply'>): Promise<boolean>
  /** Re-reads the host's list (start-up, reconnect). */
  refresh(): Promise<void>
}

export const useApprovals = create<ApprovalsState>()((set, get) => ({
  queue: [],
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
      set({ answering, errors, queue: removeRequest(get().queue, input.id) })
      return true
    }
    // CONFLICT: allowed once but the rule was not saved; the request is settled all the same.
    const settled = result.error.code === 'CONFLICT' || result.error.code === 'NOT_FOUND'
    set({
      answering,
      errors: { ...get().errors, [input.id]: result.error.message },
      ...(settled && { queue: removeRequest(get().queue, input.id) }),
    })
    return false
  },

  async refresh() {
    const listed = await api.invoke('approval.list', {})
    if (listed.ok) set({ queue: mergeList(get().queue, listed.value) })
  },
}))

function onRequested(request: ApprovalRequested): void {
  useApprovals.setState({ queue: addRequest(useApprovals.getState().queue, request) })
  notifyIfAway('Sous needs your approval', describeRequest(request), request.id)
}

api.on('approval.requested', onRequested)
api.on('approval.resolved', ({ id }) => useApprovals.setState({ queue: removeRequest(useApprovals.getState().queue, id) }))
void useApprovals.getState().refresh()
// Events missed while the link was down: the host's list is the truth after a reconnect.
connection.onState((state) => {
  if (state === 'open') void useApprovals.getState().refresh()
})
