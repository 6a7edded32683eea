import { useCallback, useEffect } from 'react'
import type { Mark } from '../features/timeline/model'
import { ReplayControls } from '../features/timeline/ReplayControls'
import { exitReplay, seekReplay, useReplay } from '../features/timeline/replay-store'
import { useTimeline } from '../features/timeline/store'
import { TimelineStrip } from '../features/timeline/TimelineStrip'
import { useSessionOnScreen } from '../state/session'
import { focusCard } from './focus-card'

/**
 * The session timeline under the conversation, with the replay's controls: the live timeline of
 * the session on screen, or, in a replay, the whole session's with the steps still to come dimmed.
 * A click on a mark shows its card (in a replay, after moving the replay to that step).
 */
export function TimelinePane({ running }: { running: boolean }) {
  const shown = useTimeline((state) => state.shown)
  const live = useTimeline((state) => state.timeline)
  const sessionId = useSessionOnScreen((state) => state.sessionId)
  const replay = useReplay((state) => state.replay)
  const replaying = replay !== null
  // Another session on screen (opened, or a new one): the replay was of the one before.
  useEffect(() => {
    if (replay && replay.sessionId !== sessionId) exitReplay()
  }, [replay, sessionId])
  const onActivate = useCallback(
    (mark: Mark) => {
      if (!replaying) return void focusCard(mark.target)
      seekReplay(mark.at + 1)
      // The conversation draws the new position on the next render.
      requestAnimationFrame(() => requestAnimationFrame(() => focusCard(mark.target)))
    },
    [replaying],
  )
  if (!shown) return null
  const timeline = replay?.sessionId === sessionId ? replay.timeline : live?.sessionId === sessionId ? live : null
  return (
    <section className="timeline-pane" aria-label="Timeline">
      {replaying && <p className="timeline__banner">Replay — the session as it was recorded; nothing is sent to the model.</p>}
      {timeline ? <TimelineStrip timeline={timeline} onActivate={onActivate} {...(replay && { landedBefore: replay.position })} /> : <p className="timeline__empty">Steps of the session appear here as they happen.</p>}
      <ReplayControls canReplay={sessionId !== null && !running} />
    </section>
  )
}
