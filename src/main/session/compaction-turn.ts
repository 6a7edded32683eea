import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { ContextManager } from '../compaction/manager'
import type { RequestShape } from '../compaction/types'
import type { QueryResult } from '../engine/types'
import { emptyResult, runToEnd } from '../engine/run'
import type { Message } from '../services/model/types'

/** What a `/compact` run between turns needs from its session. */
export interface CompactionTurnOptions {
  sessionId: string
  instructions: string
  signal: AbortSignal
  messages(): Message[]
  /** The session's model, system prompt and tools (so the summary shares the prompt cache). */
  shape(): Promise<RequestShape>
  manager: ContextManager
  emit(event: AgentEvent): void
}

/**
 * The body of `/compact [instructions]` between turns, a turn of its own that `Session.turn()`
 * opens (the command as its prompt) and closes: the compaction's events, then the result the turn
 * ends with (`completed`; `hook_stopped` when a PreCompact hook blocked it; `model_error` when no
 * summary could be made, with why). The conversation is replaced (and persisted) by the manager
 * only on success. Never rejects.
 */
export async function compactionTurn(o: CompactionTurnOptions): Promise<QueryResult> {
  const identity = { sessionId: o.sessionId, agentId: 'main' }
  const end = (reason: QueryResult['reason'], message?: string): QueryResult => emptyResult(reason, o.messages(), message !== undefined ? { message } : {})
  if (!o.messages().some((message) => message.role === 'assistant')) return end('completed', 'Nothing to compact yet: the conversation has no replies.')
  try {
    const run = o.manager.compactNow(o.messages(), await o.shape(), o.instructions)
    let outcome: CompactionRecord | undefined
    await runToEnd(run, (event) => {
      o.emit({ ...event, ...identity } as AgentEvent)
      if (event.type === 'compaction') outcome = event
    })
    if (o.signal.aborted) return end('aborted', 'Interrupted by the user.')
    if (!outcome || outcome.status === 'done') return end('completed', outcome?.detail)
    return end(outcome.status === 'blocked' ? 'hook_stopped' : 'model_error', outcome.detail)
  } catch (error) {
    return end('model_error', `Internal error: ${error instanceof Error ? error.message : String(error)}`)
  }
}
