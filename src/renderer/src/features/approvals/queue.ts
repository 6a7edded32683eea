import type { ApprovalRequested } from '../../../../shared/ipc/contract'

/**
 * The pending approvals the UI shows, oldest first. Pure functions over a plain array so the
 * store stays trivial and the ordering rules are tested on their own.
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

/**
 * One line for a notification or a queue entry: "Bash: npm test", "Edit: src/a.ts"; a subagent's
 * request is prefixed with its type: "Explore › Bash: npm test".
 */
export function describeRequest(request: ApprovalRequested): string {
  const line = describeCall(request)
  return request.agent ? `${request.agent.type} › ${line}` : line
}

function describeCall(request: ApprovalRequested): string {
  const preview = request.preview
  if (preview?.kind === 'command') return `${request.toolName}: ${preview.command}`
  if (preview?.kind === 'diff') return `${request.toolName}: ${preview.filePath}`
  if (preview?.kind === 'path') return `${request.toolName}: ${preview.path}`
  if (preview?.kind === 'url') return `${request.toolName}: ${preview.url}`
  const input = request.input as Record<string, unknown> | null
  for (const key of ['command', 'file_path', 'path', 'url']) {
    const value = input?.[key]
    if (typeof value === 'string') return `${request.toolName}: ${value}`
  }
  return request.toolName
}
