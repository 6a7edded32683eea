import type { EventChannel, EventPayload } from '../../shared/ipc/contract'

/** A listener for every event channel at once (what a transport forwards). */
export type AnyEventListener = <C extends EventChannel>(channel: C, payload: EventPayload<C>) => void

/**
 * Fan-out of main-process events to whoever carries them to renderers (Electron windows,
 * WebSocket clients). Services emit; transports subscribe.
 */
export interface EventHub {
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void
  /** Returns the unsubscribe function. */
  subscribe(listener: AnyEventListener): () => void
}

/** Creates a hub; a listener that throws is isolated from the others. */
export function createEventHub(onListenerError?: (error: unknown) => void): EventHub {
  const listeners = new Set<AnyEventListener>()
  return {
    emit(channel, payload) {
      for (const listener of listeners) {
        try {
          listener(channel, payload)
        } catch (error) {
          onListenerError?.(error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
