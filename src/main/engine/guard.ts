import type { Usage } from '../../shared/protocol/agent-event'
import type { AssistantBlock, ModelRequest } from '../services/model/types'

/** What a guard says before a request. */
export type GuardVerdict =
  /** Send it. */
  | { kind: 'go' }
  /** Prepare the request again and ask again (the user chose to compact: the next prepare does it). */
  | { kind: 'again' }
  /** End the run with this reason (headless, or the user chose to stop). */
  | { kind: 'stop'; reason: 'budget_exceeded' | 'loop_detected'; message: string }

/** A reply as a guard learns of it. */
export interface GuardedReply {
  model: string
  content: AssistantBlock[]
  usage: Usage
  costUsd: number
}

/**
 * Watches a run from outside the loop: the session's budget guard and loop brake
 * (session/run-guard.ts). The loop asks before every request it is about to send (re-issues
 * included, so a retry cannot cross a cap either) and reports every reply.
 *
 * Contract: `beforeRequest` may wait (a pause the user answers) and must settle when the run's
 * signal aborts; neither method throws (a throw is taken as `go`, so a broken guard never ends
 * work silently — the model service still refuses requests past a hard cap).
 */
export interface RequestGuard {
  beforeRequest(request: ModelRequest): Promise<GuardVerdict>
  afterReply(reply: GuardedReply): void
}
