import { useEffect, useState, type RefObject } from 'react'

/** An element's inner size in CSS pixels (`clientWidth`, `clientHeight`). */
export interface Size {
  width: number
  height: number
}

/**
 * The element's inner size in CSS pixels, kept current by a ResizeObserver. Until the first
 * observation it is `estimate` (0×0 when none is given).
 *
 * Why no measurement when the element mounts: reading `clientWidth` right after React inserted a
 * new subtree makes Chromium compute its style and layout inside the commit's task. For the
 * workspace that was most of the project's first render, one task of 60–110 ms (issue 30: no long
 * task over 50 ms). The observer's first callback comes after the frame's own layout, when the
 * reads cost nothing; a caller that must get the first frame right passes an `estimate` that
 * needs no layout (the workspace: the window's width).
 */
export function useSize(ref: RefObject<HTMLElement | null>, estimate?: () => Size): Size {
  const [size, setSize] = useState<Size>(() => estimate?.() ?? { width: 0, height: 0 })
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => {
      const width = element.clientWidth
      const height = element.clientHeight
      // The same size again (the estimate was right) is no re-render.
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }))
    }
    // A ResizeObserver reports every observed element once, after its first layout.
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return size
}
