import type { AgentEvent } from '../../../../shared/protocol/agent-event'

export { mergeStreams, type Recording, type Stream } from '../../../../shared/protocol/recording'

/**
 * Replay of a finished session as pure data: the session's events (the main agent's and every
 * subagent's, merged in the order they were recorded), the positions a step lands on, and how
 * long playback waits between them at a speed. A position is how many events have been applied:
 * 0 is before the first prompt, `events.length` the session as it ended. Nothing here calls the
 * model; the events come from the transcripts on disk.
 */

/** The speeds playback offers. */
export const SPEEDS = [1, 2, 5, 10, 20] as const
export type Speed = (typeof SPEEDS)[number]

/** The longest pause playback keeps at 1× (a user who went for coffee mid-session). */
export const MAX_GAP_MS = 2000
/** The shortest wait between two steps. */
export const MIN_DELAY_MS = 16
/**
 * The least playback moves at once: steps recorded closer together than this (after the speed)
 * are shown together, so a burst of calls played at 20× is drawn a few times a second, not once
 * per call (each draw lays out the whole conversation).
 */
export const TICK_MS = 50

/** Whether applying this event is a step a person would see: a prompt, a reply, a call starting or ending… */
function isStep(event: AgentEvent): boolean {
  switch (event.type) {
    case 'turn_start':
      return !event.parentToolUseId
    case 'assistant_message':
      return event.text.trim() !== ''
    case 'tool_state':
      return event.input !== undefined
    case 'tool_end':
    case 'compaction':
    case 'agent_start':
    case 'agent_end':
    case 'shell_start':
    case 'shell_end':
      return true
    case 'turn_end':
      return !event.parentToolUseId
    default:
      return false
  }
}

/** The positions a step lands on, ascending: just after each step event, and the end. */
export function stepPositions(events: readonly AgentEvent[]): number[] {
  const positions: number[] = []
  events.forEach((event, index) => {
    if (isStep(event)) positions.push(index + 1)
  })
  if (positions.at(-1) !== events.length && events.length > 0) positions.push(events.length)
  return positions
}

/** The next position a step forward lands on (the end stays the end). */
export function stepForward(steps: readonly number[], position: number): number {
  return steps.find((step) => step > position) ?? steps.at(-1) ?? position
}

/** The position a step back lands on (0 before the first step). */
export function stepBack(steps: readonly number[], position: number): number {
  return steps.findLast((step) => step < position) ?? 0
}

/**
 * How long playback waits before moving from `from` to `to` at `speed`: the recorded time between
 * the two (a pause longer than {@link MAX_GAP_MS} counts as that), divided by the speed, and never
 * less than {@link MIN_DELAY_MS}.
 */
export function delayBetween(times: readonly number[], from: number, to: number, speed: number): number {
  return Math.max(MIN_DELAY_MS, recordedGap(times, from, to) / speed)
}

/** The recorded time between two positions, a long pause counted as {@link MAX_GAP_MS}. */
function recordedGap(times: readonly number[], from: number, to: number): number {
  const start = times[Math.max(0, from - 1)] ?? 0
  const end = times[Math.max(0, to - 1)] ?? start
  return Math.min(MAX_GAP_MS, Math.max(0, end - start))
}

/**
 * Where playback goes next from `position` and how long it waits first: one step, or as many as
 * were recorded within {@link TICK_MS} (at `speed`) of each other, shown together.
 */
export function playbackStop(steps: readonly number[], times: readonly number[], position: number, speed: number): { position: number; wait: number } {
  let at = position
  let wait = 0
  for (;;) {
    const next = stepForward(steps, at)
    if (next <= at) break
    const gap = recordedGap(times, at, next) / speed
    // The first step always goes; a later one only when it would come within the same tick.
    if (at !== position && wait + gap > TICK_MS) break
    wait += gap
    at = next
    if (wait >= TICK_MS) break
  }
  return { position: at, wait: Math.max(MIN_DELAY_MS, Math.min(wait, MAX_GAP_MS)) }
}
