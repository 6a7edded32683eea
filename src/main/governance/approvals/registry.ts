import type { ApprovalRequested, ApprovalResolution } from '../../../shared/ipc/contract'
import type { EventHub } from '../../base/event-hub'
import type { ApprovalQueue, ApprovalRequest, QueueOutcome } from './queue'
import { describeExplanation } from '../types'

/** One live session's approval queue. */
export interface SessionQueue {
  sessionId: string
  queue: ApprovalQueue
}

/** Every live session's approval queue: what the `approval.*` handlers answer from. */
export interface ApprovalRegistry {
  queues(): Iterable<SessionQueue>
}

/**
 * The live sessions' approval queues. `add` also forwards the queue's requests to the UI
 * (`approval.requested` / `approval.resolved` on the hub) when it has a hub. Only interactive sessions
 * add theirs: an unattended session has no queue (see answerer.ts).
 */
export class ApprovalQueues implements ApprovalRegistry {
  private readonly bySession = new Map<string, ApprovalQueue>()

  constructor(private readonly events?: EventHub) {}

  /** Registers a session's queue; the returned function unregisters it (and stops forwarding). */
  add(sessionId: string, queue: ApprovalQueue): () => void {
    this.bySession.set(sessionId, queue)
    const stop = this.events ? forwardApprovals(queue, this.events, sessionId) : () => {}
    return () => {
      stop()
      if (this.bySession.get(sessionId) === queue) this.bySession.delete(sessionId)
    }
  }

  *queues(): Iterable<SessionQueue> {
    for (const [sessionId, queue] of this.bySession) yield { sessionId, queue }
  }
}

/**
 * Forwards a session's approvals to the UI: `approval.requested` when a request appears,
 * `approval.resolved` when it settles. Returns the function that stops forwarding.
 */
export function forwardApprovals(queue: ApprovalQueue, events: EventHub, sessionId: string): () => void {
  const shown = new Set<string>()
  const offPending = queue.subscribe((pending) => {
    for (const request of pending) {
      if (shown.has(request.id)) continue
      shown.add(request.id)
      events.emit('approval.requested', approvalOnWire(request, sessionId))
    }
  })
  const offSettled = queue.onSettled((request, outcome) => {
    shown.delete(request.id)
    events.emit('approval.resolved', { id: request.id, sessionId: request.sessionId ?? sessionId, outcome: outcomeOnWire(outcome), ...resolvedExtras(outcome) })
  })
  return () => {
    offPending()
    offSettled()
  }
}

/** A pending request as the contract's `ApprovalRequested`. */
export function approvalOnWire(request: ApprovalRequest, sessionId: string): ApprovalRequested {
  return {
    id: request.id,
    sessionId: request.sessionId ?? sessionId,
    toolUseId: request.toolUseId ?? '',
    toolName: request.toolName,
    input: request.input,
    ...(request.preview ? { preview: request.preview } : {}),
    explanation: { kind: request.explanation.kind, text: describeExplanation(request.explanation) },
    suggestions: request.suggestions,
    ...(request.agent ? { agent: request.agent } : {}),
  }
}

/** Only the interactive queue's outcomes reach the UI: a person's answer or an abort. */
export function outcomeOnWire(outcome: QueueOutcome): ApprovalResolution {
  if (outcome.behavior === 'allow') return outcome.scope === 'once' ? 'allowed_once' : outcome.scope === 'session' ? 'allowed_session' : 'allowed_always'
  return outcome.reason
}

function resolvedExtras(outcome: QueueOutcome): { rules?: string[]; warning?: string } {
  if (outcome.behavior !== 'allow') return {}
  return { ...(outcome.rules.length ? { rules: outcome.rules } : {}), ...(outcome.warning ? { warning: outcome.warning } : {}) }
}
