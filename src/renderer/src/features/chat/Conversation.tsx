import { useLayoutEffect, useMemo, useRef } from 'react'
import { isRunning, type Transcript } from './reducer'

import { TurnView, type TurnMarkerSlot } from './TurnView'
import { usageBefore } from './usage'

/** The scrolling log of turns; follows the stream unless the reader has scrolled up. `Marker` goes on each user turn. */
export function Conversation({ transcript, Marker }: { transcript: Transcript; Marker?: TurnMarkerSlot }) {
  const scroller = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)
  const seenHeight = useRef(0)
  const running = isRunning(transcript)
  const before = useMemo(() => usageBefore(transcript.turns), [transcript.turns])

  const turnCount = transcript.turns.length
  const seenTurns = useRef(turnCount)
  useLayoutEffect(() => {
    // A new turn (the user sent a message) follows again, even if the reader had scrolled up.
    if (turnCount > seenTurns.current) pinned.current = true
    seenTurns.current = turnCount
    const element = scroller.current
    if (element && pinned.current) element.scrollTop = element.scrollHeight
  }, [transcript, turnCount])

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    // The log also changes size without a new transcript: an approval card above the composer
    // opens or closes, a code block or tool card lays itself out later. Stay at the end through
    // those too; no scroll event says the reader moved, so `pinned` still holds.
    const follow = () => {
      seenHeight.current = element.clientHeight
      if (pinned.current) element.scrollTop = element.scrollHeight
    }
    const sizes = new ResizeObserver(follow)
    const observeTurns = () => {
      sizes.observe(element)
      for (const child of element.children) sizes.observe(child)
    }
    observeTurns()
    const changes = new MutationObserver(() => {
      observeTurns()
      follow()
    })
    changes.observe(element, { childList: true, subtree: true, characterData: true })
    return () => {
      sizes.disconnect()
      changes.disconnect()
    }
  }, [])

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
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48
  }

  return (
    <div className="conversation" ref={scroller} onScroll={onScroll} role="log" aria-label="Conversation" tabIndex={0}>
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
