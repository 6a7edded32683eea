import { useLayoutEffect, useMemo, useRef } from 'react'
import { isRunning, type Transcript } from './reducer'

import { TurnView, type TurnMarkerSlot } from './TurnView'
import { usageBefore } from './usage'

/** How long after a wheel, key, touch or pointer a scroll counts as the reader's, ms. */
const READER_MOVE_MS = 500

/** The scrolling log of turns; follows the stream unless the reader has scrolled up. `Marker` goes on each user turn. */
export function Conversation({ transcript, Marker }: { transcript: Transcript; Marker?: TurnMarkerSlot }) {
  const scroller = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)
  const seenHeight = useRef(0)
  const running = isRunning(transcript)
  const before = useMemo(() => usageBefore(transcript.turns), [transcript.turns])

  // Following the end reads the log's height, which lays it out: done once a frame, before it is
  // painted, rather than at every commit and DOM change (a replay at 20× or a burst of streamed
  // cards laid the log out several times a frame, in one long task).
  const frame = useRef<number | undefined>(undefined)
  const followSoon = useRef(() => {
    if (frame.current !== undefined) return
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined
      const element = scroller.current
      if (!element) return
      seenHeight.current = element.clientHeight
      if (pinned.current) element.scrollTop = element.scrollHeight
    })
  }).current
  useLayoutEffect(() => () => {
    if (frame.current !== undefined) cancelAnimationFrame(frame.current)
  }, [])

  const turnCount = transcript.turns.length
  const seenTurns = useRef(turnCount)
  useLayoutEffect(() => {
    // A new turn (the user sent a message) follows again, even if the reader had scrolled up.
    if (turnCount > seenTurns.current) pinned.current = true
    seenTurns.current = turnCount
    followSoon()
  }, [transcript, turnCount, followSoon])

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    // The log also changes size without a new transcript: an approval card above the composer
    // opens or closes, a code block or tool card lays itself out later. Stay at the end through
    // those too; no scroll event says the reader moved, so `pinned` still holds.
    const sizes = new ResizeObserver(followSoon)
    const observeTurns = () => {
      sizes.observe(element)
      for (const child of element.children) sizes.observe(child)
    }
    observeTurns()
    const changes = new MutationObserver(() => {
      observeTurns()
      followSoon()
    })
    changes.observe(element, { childList: true, subtree: true, characterData: true })
    return () => {
      sizes.disconnect()
      changes.disconnect()
    }
  }, [followSoon])

  const readerMoved = useRef(-Infinity)
  const reader = () => {
    readerMoved.current = performance.now()
  }

  const onScroll = () => {
    const element = scroller.current
    if (!element) return
    // A scroll that comes with a change of the log's own height is layout (an approval card came
    // or went), not the reader moving: it does not unpin.
    if (element.clientHeight !== seenHeight.current) {
      seenHeight.current = element.clientHeight
      if (pinned.current) element.scrollTop = element.scrollHeight
      return
    }
    // The log grew and its follow is due this frame: a scroll now that no wheel, key, touch or
    // pointer started (the browser anchoring the view as content above changes) is not the reader
    // moving either.
    if (frame.current !== undefined && performance.now() - readerMoved.current > READER_MOVE_MS) return
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48
  }

  return (
    <div className="conversation" ref={scroller} onScroll={onScroll} onWheel={reader} onTouchMove={reader} onKeyDown={reader} onPointerDown={reader} role="log" aria-label="Conversation" tabIndex={0}>
      {transcript.turns.length === 0 ? (
        <div className="conversation__empty">
          <p>Ask about this project, or ask for a change.</p>
        </div>
      ) : (
        transcript.turns.map((turn, index) => (
          <TurnView key={turn.key} turn={turn} live={running && index === transcript.turns.length - 1} before={before[index]} Marker={Marker} busy={running} />
        ))
      )}
    </div>
  )
}
