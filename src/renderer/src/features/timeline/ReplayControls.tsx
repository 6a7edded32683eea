import { exitReplay, pauseReplay, playReplay, seekReplay, setReplaySpeed, startReplay, stepReplay, useReplay } from './replay-store'
import { SPEEDS } from './replay'

/**
 * The replay's controls: start a replay of the finished session on screen, then play or pause,
 * step back or forward, pick the speed (1×–20×), and leave. A toolbar of its own, beside the strip.
 */
export function ReplayControls({ canReplay }: { canReplay: boolean }) {
  const replay = useReplay((state) => state.replay)
  const loading = useReplay((state) => state.loading)
  const problem = useReplay((state) => state.problem)
  if (!replay) {
    return (
      <div role="toolbar" aria-label="Replay" className="timeline__replay">
        <button type="button" className="button button--small" disabled={!canReplay || loading} onClick={() => void startReplay()}>
          {loading ? 'Loading…' : 'Replay session'}
        </button>
        {problem && (
          <span className="timeline__problem" role="alert">
            {problem}
          </span>
        )}
      </div>
    )
  }
  const stepIndex = replay.steps.filter((step) => step <= replay.position).length
  const atEnd = replay.position >= replay.recording.events.length
  return (
    <div role="toolbar" aria-label="Replay" className="timeline__replay timeline__replay--on">
      <button type="button" className="button button--small" aria-label="Step back" disabled={replay.position === 0} onClick={() => stepReplay(-1)}>
        ◀︎
      </button>
      {replay.playing ? (
        <button type="button" className="button button--small" aria-label="Pause" onClick={pauseReplay}>
          ❚❚
        </button>
      ) : (
        <button type="button" className="button button--small" aria-label="Play" onClick={playReplay}>
          ▶︎
        </button>
      )}
      <button type="button" className="button button--small" aria-label="Step forward" disabled={atEnd} onClick={() => stepReplay(1)}>
        ▶︎❘
      </button>
      <select aria-label="Replay speed" value={replay.speed} onChange={(event) => setReplaySpeed(Number(event.target.value))}>
        {SPEEDS.map((speed) => (
          <option key={speed} value={speed}>
            {speed}×
          </option>
        ))}
      </select>
      <input
        type="range"
        aria-label="Replay position"
        min={0}
        max={replay.recording.events.length}
        value={replay.position}
        aria-valuetext={`Step ${stepIndex} of ${replay.steps.length}`}
        onChange={(event) => seekReplay(Number(event.target.value))}
      />
      <span role="status" className="timeline__step">
        Step {stepIndex} of {replay.steps.length}
      </span>
      <button type="button" className="button button--small" onClick={exitReplay}>
        Exit replay
      </button>
    </div>
  )
}
