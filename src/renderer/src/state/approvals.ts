import { create } from 'zustand'
import type { ApprovalRequested } from '../../../shared/ipc/contract'
import { api } from '../api'
import { addRequest, mergeList, removeRequest, type ApprovalQueueState } from './approval-queue'

/**
 * The approvals pending in every session, kept in step with the host: one queue that the
 * approvals panel, the chat's tool cards and the agent tree all select from (each used to work
 * out "waiting for approval" on its own). Fed by `app/event-feed.ts` (`approval.requested` /
 * `approval.resolved`, and the host's list at start-up and after a reconnect); answered by the
 * approvals feature, which drops what it settled.
 */
export interface PendingApprovals {
  queue: ApprovalQueueState
}

export const usePendingApprovals = create<PendingApprovals>()(() => ({ queue: [] }))

/** A request the host announced (kept once, however often it is announced). */
export function addApproval(request: ApprovalRequested): void {
  usePendingApprovals.setState((state) => ({ queue: addRequest(state.queue, request) }))
}

/** A request answered, cancelled or gone. */
export function removeApproval(id: string): void {
  usePendingApprovals.setState((state) => ({ queue: removeRequest(state.queue, id) }))
}

/** Re-reads the host's list: the truth after start-up and after events were missed. */
export async function refreshApprovals(): Promise<void> {
  const listed = await api.invoke('approval.list', {})
  if (listed.ok) usePendingApprovals.setState((state) => ({ queue: mergeList(state.queue, listed.value) }))
}
