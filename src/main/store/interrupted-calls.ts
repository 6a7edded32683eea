import type { AgentEvent } from '../../shared/protocol/agent-event'
import { INTERRUPTED_RESULT } from './transcript-repair'

/**
 * The `tool_end` events a stored transcript cut mid-turn never got (the process was killed, the
 * connection's host ended): one per call that started — `tool_use_start` or `tool_state` — and
 * never ended, marked `interrupted`, so its card reads "Interrupted" instead of running forever or
 * "Failed". The model sees the matching result from the message repair ({@link INTERRUPTED_RESULT}). Pure.
 */
export function interruptedCallEnds(events: readonly AgentEvent[]): AgentEvent[] {
  const open = new Map<string, Extract<AgentEvent, { type: 'tool_use_start' | 'tool_state' }>>()
  for (const event of events) {
    if (event.type === 'tool_use_start' || event.type === 'tool_state') {
      if (!open.has(event.toolUseId)) open.set(event.toolUseId, event)
    } else if (event.type === 'tool_end') open.delete(event.toolUseId)
  }
  return [...open.values()].map((start) => ({
    type: 'tool_end',
    sessionId: start.sessionId,
    agentId: start.agentId,
    ...(start.parentToolUseId !== undefined && { parentToolUseId: start.parentToolUseId }),
    toolUseId: start.toolUseId,
    name: start.name,
    isError: true,
    content: INTERRUPTED_RESULT,
    interrupted: true,
  }))
}
