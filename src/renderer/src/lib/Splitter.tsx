import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import './splitter.css'

export interface SplitterProps {
  /** The accessible name, unique in the window ("Resize the sidebar"). */
  label: string
  /** `vertical`: a bar between side-by-side panes (moves left/right); `horizontal`: between stacked ones. */
  orientation: 'vertical' | 'horizontal'
  value: number
  min: number
  max: number
  /** What one arrow key press moves (Shift moves four times as far). */
  step: number
  /** How many value units one pixel of dragging moves (1 for a pixel width, 100/width for a percent). */
  perPixel: number
  /** The new value, already clamped to [min, max]. */
  onChange(value: number): void
  /** The value's text for assistive technology ("250 pixels"). */
  valueText?: string
}

/**
 * A pane splitter: drag it, or focus it and use the arrow keys (Shift for bigger steps, Home/End
 * for the ends). A WAI-ARIA window splitter: `role="separator"` with its value, range and
 * orientation, so a screen reader and the keyboard reach what the mouse does.
 */
export function Splitter({ label, orientation, value, min, max, step, perPixel, onChange, valueText }: SplitterProps) {
  const drag = useRef<{ start: number; value: number } | null>(null)
  const clamp = (next: number) => Math.min(Math.max(next, min), max)
  const position = (event: PointerEvent) => (orientation === 'vertical' ? event.clientX : event.clientY)

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const by = event.shiftKey ? step * 4 : step
    const keys: Record<string, number> =
      orientation === 'vertical' ? { ArrowLeft: value - by, ArrowRight: value + by } : { ArrowUp: value - by, ArrowDown: value + by }
    const next = event.key === 'Home' ? min : event.key === 'End' ? max : keys[event.key]
    if (next === undefined) return
    event.preventDefault()
    onChange(clamp(next))
  }

  return (
    <div
      className={`splitter splitter--${orientation}`}
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      {...(valueText && { 'aria-valuetext': valueText })}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId)
        drag.current = { start: position(event), value }
      }}
      onPointerMove={(event) => {
        if (!drag.current) return
        onChange(clamp(drag.current.value + (position(event) - drag.current.start) * perPixel))
      }}
      onPointerUp={() => {
        drag.current = null
      }}
      onPointerCancel={() => {
        drag.current = null
      }}
    />
  )
}
