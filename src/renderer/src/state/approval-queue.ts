import type { ApprovalRequested } from '../../../shared/ipc/contract'

/**
 * The pending approvals, oldest first, and what the features read of them ("is this tool call
 * waiting?", "how many asks wait on this agent?"). Pure functions over a plain array so the store
 * (`approvals.ts`) stays trivial and the rules are tested on their own.
 */
export type ApprovalQueueState = readonly ApprovalRequested[]

/** Adds a request unless it is already there (a list refresh may race the event). */
export function addRequest(queue: ApprovalQueueState, request: ApprovalRequested): ApprovalQueueState {
  return queue.some((r) => r.id === request.id) ? queue : [...queue, request]
}

/** Drops an answered or cancelled request. */
export function removeRequest(queue: ApprovalQueueState, id: string): ApprovalQueueState {
  return queue.some((r) => r.id === id) ? queue.filter((r) => r.id !== id) : queue
}

/** Replaces the queue with the host's list, keeping our order for requests we already had. */
export function mergeList(queue: ApprovalQueueState, list: readonly ApprovalRequested[]): ApprovalQueueState {
  const live = new Set(list.map((r) => r.id))
  const kept = queue.filter((r) => live.has(r.id))
  return list.reduce(addRequest, kept)
}

/** The requests of one session, oldest first. */
export function ofSession(queue: ApprovalQueueState, sessionId: string | null): ApprovalRequested[] {
  return sessionId ? queue.filter((r) => r.sessionId === sessionId) : []
}

/** The tool calls (by `toolUseId`) that wait for the user's answer, in any session. */
export function isWaiting(queue: ApprovalQueueState, toolUseId: string): boolean {
  return queue.some((r) => r.toolUseId === toolUseId)
}

/** How many approvals of `sessionId` wait on each agent (`main` for the session's main agent). */
export function waitingByAgent(queue: ApprovalQueueState, sessionId: string | null): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const request of ofSession(queue, sessionId)) {
    const agent = request.agent?.id ?? 'main'
    counts[agent] = (counts[agent] ?? 0) + 1
  }
  return counts
}
