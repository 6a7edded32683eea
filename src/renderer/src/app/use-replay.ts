import { useEffect, useMemo } from 'react'
import { emptyTranscript, reduce, type Transcript } from '../features/chat/reducer'
import { pastCommands } from '../features/terminal/history'
import { showAgentReplay } from '../features/terminal/replay-feed'
import { useReplay } from '../features/timeline/replay-store'
import { historyToReplay } from './history-replay'

/**
 * What a session replay shows, joined from the features that draw it: the conversation as it
 * stood at the replay's position (the chat's own reducer over the recording's first events, with
 * the stored replies turned into text as `history-replay.ts` does for an opened session), and the
 * Agent terminal's commands that had ended by then. Null when no replay runs.
 */
export function useReplayTranscript(): Transcript | null {
  const recording = useReplay((state) => state.replay?.recording)
  const position = useReplay((state) => state.replay?.position)
  const shown = useMemo(() => (recording && position !== undefined ? recording.events.slice(0, position) : null), [recording, position])
  useEffect(() => {
    showAgentReplay(shown ? pastCommands(shown) : null)
  }, [shown])
  useEffect(() => () => showAgentReplay(null), [])
  return useMemo(() => (shown ? historyToReplay(shown).reduce(reduce, emptyTranscript) : null), [shown])
}
