import { randomUUID } from 'node:crypto'
import type { EventChannel } from '../../../shared/ipc/contract'
import type { EventHub } from '../../base/event-hub'
import { coalesceDeltas } from '../coalesce-deltas'

/** One numbered event, as the `event` frame carries it. */
export interface LoggedEvent {
  seq: number
  channel: EventChannel
  payload: unknown
}

/** The host's events, numbered and kept for a while so a client that reconnects can catch up. */
export interface EventLog {
  /** This host run's id (the hello says it): a log, like its numbering, lives as long as its host. */
  readonly instance: string
  /** The events after `seq` still kept, oldest first. */
  since(seq: number): LoggedEvent[]
  /** The number of the newest event (0 before the first). */
  lastSeq(): number
  /** Every new event; returns the unsubscribe function. */
  subscribe(listener: (event: LoggedEvent) => void): () => void
  /** Stops listening to the hub (what is held is logged first). */
  dispose(): void
}

/**
 * Numbers every event of the hub (streamed deltas merged first, as the other transports do) and
 * keeps the last `capacity` of them: the host's memory of what a dropped client missed.
 */
export function createEventLog(hub: EventHub, capacity = 20_000): EventLog {
  const kept: LoggedEvent[] = []
  const listeners = new Set<(event: LoggedEvent) => void>()
  let seq = 0
  const coalescer = coalesceDeltas((channel, payload) => {
    const event: LoggedEvent = { seq: ++seq, channel, payload }
    kept.push(event)
    if (kept.length > capacity) kept.splice(0, kept.length - capacity)
    for (const listener of listeners) listener(event)
  })
  const unsubscribe = hub.subscribe(coalescer.listener)
  return {
    instance: randomUUID(),
    lastSeq: () => seq,
    since(after) {
      const first = kept.findIndex((event) => event.seq > after)
      return first === -1 ? [] : kept.slice(first)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      unsubscribe()
      coalescer.flush()
    },
  }
}
