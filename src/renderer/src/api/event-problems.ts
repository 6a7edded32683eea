import type { MalformedEvent } from './checked-events'

/** What the shell shows about dropped events: how many, on which channels, and the latest issues. */
export interface EventProblems {
  count: number
  channels: readonly string[]
  last: MalformedEvent | null
}

/** Malformed events seen since the last `clear()`, observable for `useSyncExternalStore`. */
export interface EventProblemLog {
  report(problem: MalformedEvent): void
  snapshot(): EventProblems
  subscribe(listener: () => void): () => void
  clear(): void
}

const NONE: EventProblems = { count: 0, channels: [], last: null }

/**
 * Keeps the count of malformed events and tells the console about each one (with its issues), so a
 * contract mismatch between main and renderer is loud in development and visible to users.
 */
export function createEventProblemLog(log: (message: string) => void = console.error): EventProblemLog {
  let state = NONE
  const listeners = new Set<() => void>()
  const emit = () => {
    for (const listener of [...listeners]) listener()
  }
  return {
    report(problem) {
      log(`Sous sent a malformed "${problem.channel}" event; it was ignored.\n${problem.issues}`)
      const channels = state.channels.includes(problem.channel) ? state.channels : [...state.channels, problem.channel]
      state = { count: state.count + 1, channels, last: problem }
      emit()
    },
    snapshot: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear() {
      if (state === NONE) return
      state = NONE
      emit()
    },
  }
}
