import type { AgentEvent } from '../../../shared/protocol/agent-event'

/**
 * Stored histories keep no deltas: a reply's text is in its `assistant_message` event, which comes
 * after the `tool_use_start`s streamed with it. The chat reducer draws text from `text_delta`s, so
 * this turns each `assistant_message` into a `text_delta` placed before that message's tool calls,
 * giving the order the user saw live. Pure.
 */
export function historyToReplay(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = []
  /** tool_use_starts of the message being streamed, held until its text is known. */
  let held: AgentEvent[] = []
  const flush = () => {
    out.push(...held)
    held = []
  }
  for (const event of events) {
    if (event.parentToolUseId) {
      out.push(event)
      continue
    }
    if (event.type === 'tool_use_start') {
      held.push(event)
      continue
    }
    if (event.type === 'assistant_message') {
      if (event.text)
        out.push({ type: 'text_delta', sessionId: event.sessionId, agentId: event.agentId, text: event.text })
      flush()
      out.push(event)
      continue
    }
    flush()
    out.push(event)
  }
  flush()
  return out
}
