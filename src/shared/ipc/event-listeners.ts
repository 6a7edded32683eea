/**
 * Who listens to which event channel, on the renderer's side of either transport (the Electron
 * preload, the WebSocket client): one registry, so both deliver events the same way.
 */
export interface EventListeners {
  /** Adds a listener to a channel; returns the function that removes it. */
  add(channel: string, listener: (payload: unknown) => void): () => void
  /**
   * Hands a payload to every listener of the channel. A listener that throws is reported and the
   * others still run (one feature's bug must not starve the others). Returns whether anyone listened.
   */
  dispatch(channel: string, payload: unknown): boolean
}

/** Creates an empty registry; `onListenerError` hears about listeners that throw. */
export function createEventListeners(
  onListenerError: (channel: string, error: unknown) => void = (channel, error) => console.error(`listener for ${channel} failed`, error),
): EventListeners {
  const byChannel = new Map<string, Set<(payload: unknown) => void>>()
  return {
    add(channel, listener) {
      let listeners = byChannel.get(channel)
      if (!listeners) byChannel.set(channel, (listeners = new Set()))
      // Wrapped, so adding the same function twice gives two independent subscriptions.
      const entry = (payload: unknown): void => listener(payload)
      listeners.add(entry)
      return () => {
        listeners.delete(entry)
      }
    },
    dispatch(channel, payload) {
      const listeners = byChannel.get(channel)
      if (!listeners?.size) return false
      for (const listener of [...listeners]) {
        try {
          listener(payload)
        } catch (error) {
          onListenerError(channel, error)
        }
      }
      return true
    },
  }
}
