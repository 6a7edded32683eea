/** Runs `callback` soon; returns a cancel function. */
export type Scheduler = (callback: () => void) => () => void

/**
 * The next animation frame, or 100 ms later if no frame comes (a hidden window gets no frames,
 * and events must not pile up there forever).
 */
export const nextFrame: Scheduler = (callback) => {
  let done = false
  const run = () => {
    if (done) return
    done = true
    cancelAnimationFrame(frame)
    clearTimeout(timer)
    callback()
  }
  const frame = requestAnimationFrame(run)
  const timer = setTimeout(run, 100)
  return () => {
    done = true
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/** Collects items and hands them over in one batch per scheduled tick, in arrival order. */
export interface FrameBatcher<T> {
  push(item: T): void
  /** Delivers what is queued now (e.g. before a reset). */
  flush(): void
  /** Drops what is queued and cancels the pending tick. */
  clear(): void
}

/**
 * Coalesces a fast stream (dozens of text deltas per frame) into one state update per frame,
 * so React renders once per frame instead of once per token.
 */
export function createFrameBatcher<T>(deliver: (items: T[]) => void, schedule: Scheduler = nextFrame): FrameBatcher<T> {
  let queue: T[] = []
  let cancel: (() => void) | undefined
  const flush = () => {
    cancel?.()
    cancel = undefined
    if (queue.length === 0) return
    const items = queue
    queue = []
    deliver(items)
  }
  return {
    push(item) {
      queue.push(item)
      cancel ??= schedule(flush)
    },
    flush,
    clear() {
      cancel?.()
      cancel = undefined
      queue = []
    },
  }
}
