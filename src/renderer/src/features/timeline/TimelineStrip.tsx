import { memo, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { filesLine, MAIN_LANE, markName, type Lane, type Mark, type Timeline } from './model'
import './timeline.css'

/** Width of one step on the axis, in px. */
const STEP = 14

export interface TimelineStripProps {
  timeline: Timeline
  /** In a replay: marks that began at or after this many events are still to come. */
  landedBefore?: number
  /** A mark was clicked (or Enter/Space on it): show its card. */
  onActivate(mark: Mark): void
}

/**
 * The session timeline under the conversation: one row per lane (the main agent, then each
 * subagent), every step a button on a shared axis. A toolbar with one tab stop: the arrow keys
 * move along the axis (Left/Right) and between lanes (Up/Down), Home/End to the first and last
 * step. Hovering or focusing a mark shows the files changed at that step.
 */
export function TimelineStrip({ timeline, landedBefore, onActivate }: TimelineStripProps) {
  const { marks, lanes } = timeline
  const [active, setActive] = useState<string | null>(null)
  // The tip follows the pointer first, else the focus.
  const [hovered, setHovered] = useState<string | null>(null)
  const [focused, setFocused] = useState<string | null>(null)
  const shown = hovered ?? focused
  const scroller = useRef<HTMLDivElement>(null)
  const buttons = useRef(new Map<string, HTMLButtonElement>())
  const byLane = useMemo(() => groupByLane(lanes, marks), [lanes, marks])
  const activeId = active !== null && timeline.index.has(active) ? active : (marks.at(-1)?.id ?? null)
  const shownMark = shown !== null ? marks[timeline.index.get(shown) ?? -1] : undefined
  const width = Math.max(1, marks.length) * STEP

  // Follow the newest mark while the reader has not scrolled back along the strip.
  const following = useRef(true)
  useLayoutEffect(() => {
    const element = scroller.current
    if (element && following.current && landedBefore === undefined) element.scrollLeft = element.scrollWidth
  }, [marks.length, landedBefore])

  const move = (mark: Mark | undefined) => {
    if (!mark) return
    setActive(mark.id)
    // The keys moved on: the tip is about the focused mark now, not the one under a resting pointer.
    setHovered(null)
    buttons.current.get(mark.id)?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = activeId !== null ? marks[timeline.index.get(activeId) ?? -1] : undefined
    if (!current) return
    let next: Mark | undefined
    if (event.key === 'ArrowRight') next = marks[current.seq + 1]
    else if (event.key === 'ArrowLeft') next = marks[current.seq - 1]
    else if (event.key === 'Home') next = marks[0]
    else if (event.key === 'End') next = marks.at(-1)
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') next = nearestInLane(byLane, lanes, current, event.key === 'ArrowDown' ? 1 : -1)
    else if (event.key === 'Escape') {
      setHovered(null)
      return setFocused(null)
    }
    else return
    event.preventDefault()
    move(next)
  }

  return (
    <div className="timeline">
      <div
        className="timeline__scroller"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget
          following.current = element.scrollWidth - element.scrollLeft - element.clientWidth < STEP * 2
        }}
      >
        <div role="toolbar" aria-label="Session timeline" aria-orientation="horizontal" className="timeline__lanes" style={{ width }} onKeyDown={onKeyDown}>
          {lanes.map((lane) => (
            <div key={lane.id} role="group" aria-label={lane.id === MAIN_LANE ? 'Main agent' : `Subagent ${lane.label}`} className={`timeline__lane timeline__lane--${lane.state}`} data-lane={lane.id}>
              <span className="timeline__lane-label" aria-hidden="true">
                {lane.label}
              </span>
              {(byLane.get(lane.id) ?? []).map((mark) => (
                <MarkButton
                  key={mark.id}
                  mark={mark}
                  tabbable={mark.id === activeId}
                  pending={landedBefore !== undefined && mark.at >= landedBefore}
                  described={mark.id === shown}
                  register={(element) => {
                    if (element) buttons.current.set(mark.id, element)
                    else buttons.current.delete(mark.id)
                  }}
                  onHover={(on) => setHovered(on ? mark.id : null)}
                  onFocusMark={(on) => {
                    if (on) setActive(mark.id)
                    setFocused(on ? mark.id : null)
                  }}
                  onActivate={onActivate}
                />
              ))}
            </div>
          ))}
        </div>
      </div>
      <div id="timeline-mark-files" role="tooltip" className="timeline__tip" hidden={!shownMark}>
        {shownMark && (
          <>
            <strong>{markName(shownMark)}</strong> <span>{filesLine(shownMark)}</span>
          </>
        )}
      </div>
      {marks.length === 0 && <p className="timeline__empty">Steps of the session appear here as they happen.</p>}
    </div>
  )
}

interface MarkButtonProps {
  mark: Mark
  tabbable: boolean
  pending: boolean
  described: boolean
  register(element: HTMLButtonElement | null): void
  onHover(on: boolean): void
  onFocusMark(on: boolean): void
  onActivate(mark: Mark): void
}

const MarkButton = memo(function MarkButton({ mark, tabbable, pending, described, register, onHover, onFocusMark, onActivate }: MarkButtonProps) {
  return (
    <button
      type="button"
      ref={register}
      className={`timeline__mark timeline__mark--${mark.kind} timeline__mark--${mark.state}${pending ? ' timeline__mark--pending' : ''}`}
      style={{ left: mark.seq * STEP }}
      tabIndex={tabbable ? 0 : -1}
      aria-label={markName(mark)}
      aria-describedby={described ? 'timeline-mark-files' : undefined}
      data-mark-kind={mark.kind}
      onMouseEnter={() => onHover(true)}
      onMouseLeave={() => onHover(false)}
      onFocus={() => onFocusMark(true)}
      onBlur={() => onFocusMark(false)}
      onClick={() => onActivate(mark)}
    />
  )
}, (before, after) => before.mark === after.mark && before.tabbable === after.tabbable && before.pending === after.pending && before.described === after.described && before.onActivate === after.onActivate)

function groupByLane(lanes: readonly Lane[], marks: readonly Mark[]): Map<string, Mark[]> {
  const groups = new Map<string, Mark[]>(lanes.map((lane) => [lane.id, []]))
  for (const mark of marks) (groups.get(mark.lane) ?? groups.get(MAIN_LANE)!).push(mark)
  return groups
}

/** The mark of the lane above or below that is nearest on the axis (lanes without marks are skipped). */
function nearestInLane(byLane: Map<string, Mark[]>, lanes: readonly Lane[], from: Mark, direction: 1 | -1): Mark | undefined {
  const at = lanes.findIndex((lane) => lane.id === from.lane)
  for (let index = at + direction; index >= 0 && index < lanes.length; index += direction) {
    const candidates = byLane.get(lanes[index]!.id) ?? []
    if (candidates.length === 0) continue
    return candidates.reduce((best, mark) => (Math.abs(mark.seq - from.seq) < Math.abs(best.seq - from.seq) ? mark : best))
  }
  return undefined
}
