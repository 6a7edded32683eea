import { useEffect, useMemo } from 'react'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { emptyTranscript, reduce, type Transcript } from '../features/chat/reducer'
import { pastCommands } from '../features/terminal/history'
import { showAgentReplay } from '../features/terminal/replay-feed'
import { useReplay } from '../features/timeline/replay-store'

/**
 * What a session replay shows, joined from the features that draw it: the conversation as it
 * stood at the replay's position (the chat's own reducer over the recording's first events), and
 * the Agent terminal's commands that had ended by then. Null when no replay runs.
 *
 * Going forward only the new events are folded onto the conversation drawn before, so the turns
 * they leave alone keep their identity and do not render again (playing at 20× redrew every turn
 * at every step before); going back folds from the start.
 */
export function useReplayTranscript(): Transcript | null {
  const recording = useReplay((state) => state.replay?.recording)
  const position = useReplay((state) => state.replay?.position)
  const transcript = useMemo(() => (recording && position !== undefined ? replayedAt(recording.events, position) : null), [recording, position])
  const commands = useMemo(() => (recording && position !== undefined ? pastCommands(recording.events.slice(0, position)) : null), [recording, position])
  useEffect(() => {
    showAgentReplay(commands)
  }, [commands])
  useEffect(() => () => showAgentReplay(null), [])
  return transcript
}

/** The conversation drawn last (one replay runs at a time): where the next step forward folds on from. */
let drawn: { events: readonly AgentEvent[]; position: number; transcript: Transcript } | null = null

/** The conversation after the first `position` events, folded on from the last one drawn when that is a prefix. */
function replayedAt(events: readonly AgentEvent[], position: number): Transcript {
  const from = drawn && drawn.events === events && drawn.position <= position ? drawn : { position: 0, transcript: emptyTranscript }
  let folded = from.transcript
  for (let index = from.position; index < position; index++) folded = reduce(folded, events[index]!)
  drawn = { events, position, transcript: folded }
  return folded
}
