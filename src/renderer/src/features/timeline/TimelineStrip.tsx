import { memo, useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useFilesLine } from './call-files'
import { MAIN_LANE, markName, type Lane, type Mark, type Timeline } from './model'
import './timeline.css'

/** Width of one step on the axis, in px. */
const STEP = 14
/** Room for the lane's name before its first step, in px (the name stays in view: timeline.css). */
const LABEL = 120

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
 * step. Hovering or focusing a mark shows the files changed at that step (a command's from the
 * checkpoints around it: `call-files.ts`).
 */
export function TimelineStrip({ timeline, landedBefore, onActivate }: TimelineStripProps) {
  const { marks, lanes } = timeline
  const [active, setActive] = useState<string | null>(null)
  // The tip follows the pointer first, else the focus.
  const [hovered, setHovered] = useState<string | null>(null)
  const [focused, setFocused] = useState<string | null>(null)
  const shown = hovered ?? focused
  const buttons = useRef(new Map<string, HTMLButtonElement>())
  // Each lane's marks keep their array while none of them changed, so its row does not render again.
  const previousGroups = useRef(new Map<string, Mark[]>())
  const byLane = useMemo(() => {
    const groups = stableGroups(groupByLane(lanes, marks), previousGroups.current)
    previousGroups.current = groups
    return groups
  }, [lanes, marks])
  const register = useCallback((id: string, element: HTMLButtonElement | null) => {
    if (element) buttons.current.set(id, element)
    else buttons.current.delete(id)
  }, [])
  const onHover = useCallback((id: string, on: boolean) => setHovered((now) => (on ? id : now === id ? null : now)), [])
  const onFocusMark = useCallback((id: string, on: boolean) => {
    if (on) setActive(id)
    setFocused((now) => (on ? id : now === id ? null : now))
  }, [])
  const activeId = active !== null && timeline.index.has(active) ? active : (marks.at(-1)?.id ?? null)
  const shownMark = shown !== null ? marks[timeline.index.get(shown) ?? -1] : undefined
  const shownFiles = useFilesLine(timeline.sessionId, shownMark)
  const width = LABEL + Math.max(1, marks.length) * STEP

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
      {/* Laid out from its end (timeline.css), so it shows the newest marks as they come without a script reading its width. */}
      <div className="timeline__scroller">
        <div role="toolbar" aria-label="Session timeline" aria-orientation="horizontal" className="timeline__lanes" style={{ width }} onKeyDown={onKeyDown}>
          {lanes.map((lane) => {
            const laneMarks = byLane.get(lane.id) ?? NONE
            const mine = (id: string | null) => (id !== null && laneMarks.some((mark) => mark.id === id) ? id : null)
            return (
              <LaneRow
                key={lane.id}
                lane={lane}
                marks={laneMarks}
                tabbable={mine(activeId)}
                described={mine(shown)}
                landed={landedBefore === undefined ? laneMarks.length : laneMarks.filter((mark) => mark.at < landedBefore).length}
                register={register}
                onHover={onHover}
                onFocusMark={onFocusMark}
                onActivate={onActivate}
              />
            )
          })}
        </div>
      </div>
      <div id="timeline-mark-files" role="tooltip" className="timeline__tip" hidden={!shownMark}>
        {shownMark && (
          <>
            <strong>{markName(shownMark)}</strong> <span>{shownFiles}</span>
          </>
        )}
      </div>
      {marks.length === 0 && <p className="timeline__empty">Steps of the session appear here as they happen.</p>}
    </div>
  )
}

const NONE: Mark[] = []

interface RowCallbacks {
  register(id: string, element: HTMLButtonElement | null): void
  onHover(id: string, on: boolean): void
  onFocusMark(id: string, on: boolean): void
  onActivate(mark: Mark): void
}

interface LaneRowProps extends RowCallbacks {
  lane: Lane
  marks: readonly Mark[]
  /** The strip's one tab stop, when it is in this lane. */
  tabbable: string | null
  /** The mark the tip is about, when it is in this lane. */
  described: string | null
  /** How many of the lane's marks have landed (in a replay; else all). */
  landed: number
}

/** One lane: re-renders only when its marks, its share of the focus or tip, or its landed count change. */
const LaneRow = memo(function LaneRow({ lane, marks, tabbable, described, landed, ...callbacks }: LaneRowProps) {
  return (
    <div role="group" aria-label={lane.id === MAIN_LANE ? 'Main agent' : `Subagent ${lane.label}`} className={`timeline__lane timeline__lane--${lane.state}`} data-lane={lane.id}>
      <span className="timeline__lane-label" aria-hidden="true">
        {lane.label}
      </span>
      {marks.map((mark, index) => (
        <MarkButton key={mark.id} mark={mark} tabbable={mark.id === tabbable} pending={index >= landed} described={mark.id === described} {...callbacks} />
      ))}
    </div>
  )
})

interface MarkButtonProps extends RowCallbacks {
  mark: Mark
  tabbable: boolean
  pending: boolean
  described: boolean
}

const MarkButton = memo(function MarkButton({ mark, tabbable, pending, described, register, onHover, onFocusMark, onActivate }: MarkButtonProps) {
  return (
    <button
      type="button"
      ref={(element) => register(mark.id, element)}
      className={`timeline__mark timeline__mark--${mark.kind} timeline__mark--${mark.state}${pending ? ' timeline__mark--pending' : ''}`}
      style={{ left: LABEL + mark.seq * STEP }}
      tabIndex={tabbable ? 0 : -1}
      aria-label={markName(mark)}
      aria-describedby={described ? 'timeline-mark-files' : undefined}
      data-mark-kind={mark.kind}
      onMouseEnter={() => onHover(mark.id, true)}
      onMouseLeave={() => onHover(mark.id, false)}
      onFocus={() => onFocusMark(mark.id, true)}
      onBlur={() => onFocusMark(mark.id, false)}
      onClick={() => onActivate(mark)}
    />
  )
})

/** `groups`, with each lane's array replaced by the one before when it holds the same marks. */
function stableGroups(groups: Map<string, Mark[]>, before: ReadonlyMap<string, Mark[]>): Map<string, Mark[]> {
  for (const [lane, marks] of groups) {
    const old = before.get(lane)
    if (old && old.length === marks.length && old.every((mark, index) => mark === marks[index])) groups.set(lane, old)
  }
  return groups
}

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
