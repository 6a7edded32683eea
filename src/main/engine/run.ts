import type { AgentEvent } from '../../shared/protocol/agent-event'
import { stamp } from './events'
import type { QueryResult } from './types'
import { zeroUsage } from './usage'

/**
 * Drives a run (the `query` loop, a compaction, any generator of events that ends with a result)
 * to its end: each event goes to `onEvent` as it comes, and the result comes back. The one loop
 * over a run's steps — the session's turns, subagents, `/compact` and memory extraction use it.
 */
export async function runToEnd<Event, Result>(run: AsyncGenerator<Event, Result>, onEvent: (event: Event) => void = () => {}): Promise<Result> {
  for (;;) {
    const next = await run.next()
    if (next.done) return next.value
    onEvent(next.value)
  }
}

/**
 * The result of a turn that made no request (refused, ended by a command, failed before the loop,
 * a compaction): the conversation as it is, no usage, no cost.
 */
export function emptyResult(reason: QueryResult['reason'], messages: QueryResult['messages'], extra: { message?: string; resultText?: string } = {}): QueryResult {
  return { reason, ...(extra.message !== undefined && { message: extra.message }), messages, turns: 0, usage: zeroUsage(), costUsd: 0, resultText: extra.resultText ?? '' }
}

/**
 * The `turn_end` event that closes a run ended with `result`: its reason, and its message when it
 * has one. The one way that event is made — `Session.turn()` closes the main agent's turns with
 * it, `runSubagent` a subagent's run.
 */
export function turnEnd(result: Pick<QueryResult, 'reason' | 'message'>, identity: { sessionId: string; agentId: string; parentToolUseId?: string }): AgentEvent {
  return stamp({ type: 'turn_end', reason: result.reason, ...(result.message !== undefined && { message: result.message }) }, identity)
}
