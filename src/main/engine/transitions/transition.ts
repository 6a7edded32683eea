import type { TerminalReason } from '../../../shared/protocol/agent-event'

/**
 * Why the loop goes on after a step (as the seeds' `transition` field), or why it ends. Each step
 * of `query.ts` returns one, so the reason the loop continues is a value that can be read and
 * tested, not a flag set somewhere earlier.
 */
export type Transition = { kind: 'continue'; reason: ContinueReason } | { kind: 'end'; reason: TerminalReason; message?: string }

/** Why another request follows. */
export type ContinueReason =
  /** The tool results went back to the model. */
  | 'next_turn'
  /** The reply was cut at the output limit; its text is kept and a nudge asks the model to go on. */
  | 'max_tokens_recovery'
  /** A Stop hook blocked the stop; its reason went back to the model. */
  | 'stop_hook_blocking'
  /** The turn would stop under the user's token budget ("+500k"); a reminder with what is left goes back. */
  | 'token_budget_continuation'
  /** The request prepared again after the guard's pause (the user chose to compact). */
  | 'guard_retry'
  /** The same request again, over the compacted conversation. */
  | 'reactive_compact_retry'
  /** The same request again, after the stream broke. */
  | 'stream_retry'

/** Continuations that re-issue the previous request: they are not a new turn, so `maxTurns` does not stop them. */
const REISSUES: ReadonlySet<ContinueReason> = new Set(['guard_retry', 'reactive_compact_retry', 'stream_retry'])

/** The loop goes on, for `reason`. */
export const proceed = (reason: ContinueReason): Transition => ({ kind: 'continue', reason })

/** The run ends with `reason`. */
export const finish = (reason: TerminalReason, message?: string): Transition => ({ kind: 'end', reason, ...(message !== undefined && { message }) })

/** The run ends because the user interrupted it. */
export const aborted = (): Extract<Transition, { kind: 'end' }> => ({ kind: 'end', reason: 'aborted', message: 'Interrupted by the user.' })

/** Whether the request after this transition re-issues the previous one. */
export function isReissue(transition: Transition | undefined): boolean {
  return transition?.kind === 'continue' && REISSUES.has(transition.reason)
}
