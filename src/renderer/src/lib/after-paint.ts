/** How long to wait for a frame before running anyway: a hidden window paints none. */
const NO_FRAME_MS = 250

/**
 * Runs `steps` one task each, the first in the task after the next paint (or after
 * {@link NO_FRAME_MS} when no frame comes, as in a window not shown yet). For work that need not
 * be in the frame that first shows its component: done in the commit's task, it made that task
 * long (issue 30: no long task over 50 ms). Returns a function that cancels the steps not yet run.
 */
export function afterPaint(steps: ReadonlyArray<() => void>): () => void {
  let next = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let cancelled = false
  const runNext = (): void => {
    if (cancelled || next >= steps.length) return
    steps[next++]!()
    timer = setTimeout(runNext, 0)
  }
  let started = false
  const start = (): void => {
    if (started) return
    started = true
    clearTimeout(fallback)
    cancelAnimationFrame(frame)
    timer = setTimeout(runNext, 0)
  }
  // A frame callback runs just before the paint; the task it queues runs after it.
  const frame = requestAnimationFrame(start)
  const fallback = setTimeout(start, NO_FRAME_MS)
  return () => {
    cancelled = true
    cancelAnimationFrame(frame)
    clearTimeout(fallback)
    clearTimeout(timer)
  }
}
