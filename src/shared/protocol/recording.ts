import type { AgentEvent } from './agent-event'

/**
 * A session's recording: the main agent's stored events and every subagent's (each from its own
 * transcript), merged into one list in the order they were recorded. The renderer replays it; the
 * main side's HTML export writes it into a page.
 */

/** One agent's stored events and when the transcript recorded each (ms since the epoch). */
export interface Stream {
  events: readonly AgentEvent[]
  /** Same length as `events` when known; missing times take the one before (or the agent's start). */
  times?: readonly number[]
}

/** A session's events in recorded order, each with its time. */
export interface Recording {
  events: AgentEvent[]
  times: number[]
}

/**
 * Merges the main agent's stream with the subagents' into one recording, ordered by time; on equal
 * times the main agent's events come first, then each stream's in its own order (stable).
 */
export function mergeStreams(main: Stream, agents: readonly Stream[]): Recording {
  const timed = [main, ...agents].map((stream, rank) => withTimes(stream).map((entry, order) => ({ ...entry, rank, order })))
  const all = timed.flat()
  all.sort((a, b) => a.at - b.at || a.rank - b.rank || a.order - b.order)
  return { events: all.map((entry) => entry.event), times: all.map((entry) => entry.at) }
}

function withTimes(stream: Stream): Array<{ event: AgentEvent; at: number }> {
  let last = firstKnown(stream)
  return stream.events.map((event, index) => {
    const given = stream.times?.[index]
    if (given !== undefined && Number.isFinite(given)) last = given
    else if ((event.type === 'agent_start' || event.type === 'agent_end') && Number.isFinite(event.at)) last = event.at
    return { event, at: last }
  })
}

function firstKnown(stream: Stream): number {
  const time = stream.times?.find((value) => Number.isFinite(value))
  if (time !== undefined) return time
  const start = stream.events.find((event) => event.type === 'agent_start')
  return start?.type === 'agent_start' ? start.at : 0
}
