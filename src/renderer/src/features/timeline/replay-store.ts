import { create } from 'zustand'
import { timedReplay } from '../../lib/history-replay'
import { sessionOnScreen } from '../../state/session'
import type { Timeline } from './model'
import { loadRecording } from './recording'
import { playbackStop, SPEEDS, stepBack, stepForward, stepPositions, type Recording, type Speed } from './replay'
import { timelineOf } from './store'

/**
 * Replay of the session on screen, once it has finished: its recording (read from the
 * transcripts, never the model), where the replay stands, and playback. What is shown at a
 * position — the conversation, the Agent terminal — is joined in by the shell (`app/`), which
 * reads {@link ReplayState.recording} up to {@link ReplayState.position}: the recording is in the
 * order the chat folds it (`lib/history-replay.ts`), so the conversation at a position is the chat
 * reducer over that prefix.
 */
export interface ReplayState {
  sessionId: string
  recording: Recording
  /** The positions a step lands on. */
  steps: number[]
  /** How many of the recording's events are applied. */
  position: number
  playing: boolean
  speed: Speed
  /** The whole session's timeline (marks past the position are still to come). */
  timeline: Timeline
}

interface ReplayStore {
  replay: ReplayState | null
  /** Why the last replay could not start. */
  problem: string | null
  loading: boolean
}

export const useReplay = create<ReplayStore>()(() => ({ replay: null, problem: null, loading: false }))

let timer: ReturnType<typeof setTimeout> | undefined

function stopTimer(): void {
  if (timer !== undefined) clearTimeout(timer)
  timer = undefined
}

function change(next: Partial<ReplayState>): void {
  const { replay } = useReplay.getState()
  if (replay) useReplay.setState({ replay: { ...replay, ...next } })
}

/** Reads the on-screen session's recording and starts a replay at its beginning (paused). */
export async function startReplay(): Promise<void> {
  const { sessionId } = sessionOnScreen()
  if (!sessionId) {
    useReplay.setState({ problem: 'Nothing to replay yet: start or open a session first.' })
    return
  }
  stopTimer()
  useReplay.setState({ loading: true, problem: null })
  try {
    // In the order the chat draws (each reply's text before its calls), so a position is a prefix to fold.
    const stored = await loadRecording(sessionId)
    const recording = timedReplay(stored.events, stored.times)
    if (sessionOnScreen().sessionId !== sessionId) return useReplay.setState({ loading: false })
    useReplay.setState({ loading: false, replay: { sessionId, recording, steps: stepPositions(recording.events), position: 0, playing: false, speed: 1, timeline: timelineOf(sessionId, recording) } })
  } catch (error) {
    useReplay.setState({ loading: false, problem: `Could not replay the session: ${(error as Error).message}` })
  }
}

/** Leaves the replay: the conversation shows the session as it is again. */
export function exitReplay(): void {
  stopTimer()
  useReplay.setState({ replay: null, problem: null })
}

/** Moves to a position (a step, a mark's moment), pausing playback. */
export function seekReplay(position: number): void {
  const { replay } = useReplay.getState()
  if (!replay) return
  stopTimer()
  change({ position: Math.max(0, Math.min(replay.recording.events.length, position)), playing: false })
}

/** One step forward or back (pauses playback). */
export function stepReplay(direction: 1 | -1): void {
  const { replay } = useReplay.getState()
  if (!replay) return
  seekReplay(direction === 1 ? stepForward(replay.steps, replay.position) : stepBack(replay.steps, replay.position))
}

export function setReplaySpeed(speed: number): void {
  const chosen = SPEEDS.find((candidate) => candidate === speed)
  if (chosen === undefined) return
  change({ speed: chosen })
  // The wait already scheduled was for the old speed.
  if (useReplay.getState().replay?.playing) scheduleNext()
}

/** Plays from where the replay stands (from the start once it reached the end). */
export function playReplay(): void {
  const { replay } = useReplay.getState()
  if (!replay || replay.steps.length === 0) return
  if (replay.position >= replay.recording.events.length) change({ position: 0 })
  change({ playing: true })
  scheduleNext()
}

export function pauseReplay(): void {
  stopTimer()
  change({ playing: false })
}

function scheduleNext(): void {
  stopTimer()
  const replay = useReplay.getState().replay
  if (!replay?.playing) return
  const stop = playbackStop(replay.steps, replay.recording.times, replay.position, replay.speed)
  if (stop.position <= replay.position) return change({ playing: false })
  timer = setTimeout(() => {
    timer = undefined
    const now = useReplay.getState().replay
    if (!now?.playing || now.sessionId !== replay.sessionId) return
    change({ position: stop.position })
    scheduleNext()
  }, stop.wait)
}
