import type { AgentEvent } from '../../../shared/protocol/agent-event'

/** Events that end a reply for sure: what was held is let out before them. */
const BOUNDARIES = new Set<AgentEvent['type']>(['turn_start', 'turn_end', 'request_start'])

/**
 * Stored histories keep no deltas: a reply's text (and thinking) is in its `assistant_message`
 * event, which comes after the `tool_use_start`s streamed with it. The chat reducer draws text from
 * `text_delta`s and folded thinking from `thinking_delta`s, so this turns each `assistant_message`
 * into a `thinking_delta` and a `text_delta` placed before that message's tool calls, giving the
 * order the user saw live. Pure.
 */
export function historyToReplay(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = []
  /** The events from the streamed message's first tool call on, held until its text is known. */
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
    // From a reply's first tool call to its assistant_message, everything is held (the tool's
    // pending state, the request's usage): the text and thinking streamed before all of it.
    if (event.type === 'tool_use_start' || (held.length > 0 && !BOUNDARIES.has(event.type) && event.type !== 'assistant_message')) {
      held.push(event)
      continue
    }
    if (event.type === 'assistant_message') {
      // Thinking came first live (the chat folds it), then the text.
      if (event.thinking) out.push({ type: 'thinking_delta', sessionId: event.sessionId, agentId: event.agentId, text: event.thinking })
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
