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
  return timedReplay(events, []).events
}

/**
 * {@link historyToReplay} with each event's recorded time carried along (a text put before its
 * message's calls takes the message's time), for a replay that plays at the recorded pace. Pure.
 */
export function timedReplay(events: readonly AgentEvent[], times: readonly number[]): { events: AgentEvent[]; times: number[] } {
  const out: AgentEvent[] = []
  const outTimes: number[] = []
  /** The events from the streamed message's first tool call on (with their times), held until its text is known. */
  let held: Array<[AgentEvent, number]> = []
  const push = (event: AgentEvent, at: number) => {
    out.push(event)
    outTimes.push(at)
  }
  const flush = () => {
    for (const [event, at] of held) push(event, at)
    held = []
  }
  events.forEach((event, index) => {
    const at = times[index] ?? times[index - 1] ?? 0
    if (event.parentToolUseId) return push(event, at)
    // From a reply's first tool call to its assistant_message, everything is held (the tool's
    // pending state, the request's usage): the text and thinking streamed before all of it.
    if (event.type === 'tool_use_start' || (held.length > 0 && !BOUNDARIES.has(event.type) && event.type !== 'assistant_message')) {
      held.push([event, at])
      return
    }
    if (event.type === 'assistant_message') {
      // Thinking came first live (the chat folds it), then the text.
      if (event.thinking) push({ type: 'thinking_delta', sessionId: event.sessionId, agentId: event.agentId, text: event.thinking }, at)
      if (event.text) push({ type: 'text_delta', sessionId: event.sessionId, agentId: event.agentId, text: event.text }, at)
      flush()
      return push(event, at)
    }
    flush()
    push(event, at)
  })
  flush()
  return { events: out, times: outTimes }
}
