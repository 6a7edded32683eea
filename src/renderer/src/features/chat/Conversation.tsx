import { useLayoutEffect, useRef } from 'react'
import { isRunning, type Transcript } from './reducer'

import { TurnView } from './TurnView'

/** The scrolling log of turns; follows the stream unless the reader has scrolled up. */
export function Conversation({ transcript }: { transcript: Transcript }) {
  const scroller = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)
  const running = isRunning(transcript)

  useLayoutEffect(() => {
    const element = scroller.current
    if (element && pinned.current) element.scrollTop = element.scrollHeight
  }, [transcript])

  const onScroll = () => {
    const element = scroller.current
    if (!element) return
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
          <TurnView key={turn.key} turn={turn} live={running && index === transcript.turns.length - 1} />
        ))
      )}
    </div>
  )
}
