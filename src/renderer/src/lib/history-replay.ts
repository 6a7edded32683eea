import type { AgentEvent } from '../../../shared/protocol/agent-event'

/**
 * Stored histories keep no deltas: a reply's text is in its `assistant_message` event, which comes
 * after the `tool_use_start`s streamed with it. The chat reducer draws text from `text_delta`s, so
 * this turns each `assistant_message` into a `text_delta` placed before that message's tool calls,
 * giving the order the user saw live. Pure.
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
  /** tool_use_starts of the message being streamed (with their times), held until its text is known. */
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
    if (event.type === 'tool_use_start') {
      held.push([event, at])
      return
    }
    if (event.type === 'assistant_message') {
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
