import { useEffect, type RefObject } from 'react'
import { afterPaint } from './after-paint'

/**
 * Focuses `ref`'s element once the frame that shows it has been painted, unless focus has gone
 * somewhere meanwhile. `autoFocus` focuses during React's commit instead, and a focus there makes
 * the browser compute the whole page's style and layout inside that task: on the start screen,
 * the window's first real render, that was a 40–50 ms task of its own (issue 30: no long task
 * over 50 ms during start). After the paint the layout is already done and focusing costs nothing.
 */
export function useFocusAfterPaint(ref: RefObject<HTMLElement | null>): void {
  useEffect(
    () =>
      afterPaint([
        () => {
          const active = document.activeElement
          if (!active || active === document.body) ref.current?.focus()
        },
      ]),
    [ref],
  )
}
