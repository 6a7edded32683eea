import { useEffect, type RefObject } from 'react'

/**
 * Focuses `ref`'s element once the frame that shows it has been painted, unless focus has gone
 * somewhere meanwhile. `autoFocus` focuses during React's commit instead, and a focus there makes
 * the browser compute the whole page's style and layout inside that task: on the start screen,
 * the window's first real render, that was a 40–50 ms task of its own (issue 30: no long task
 * over 50 ms during start). After the paint the layout is already done and focusing costs nothing.
 */
export function useFocusAfterPaint(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    // A frame callback runs just before the paint; the task it queues runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const active = document.activeElement
        if (!active || active === document.body) ref.current?.focus()
      }, 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [ref])
}
