import { useSessionOnScreen } from '../../state/session'
import { useRewind } from './store'

/**
 * The marker on a user turn in the chat: "Rewind to here" opens the rewind picker at the
 * checkpoint taken before that turn (with its preview); "Fork from here" opens it to start a new
 * session from there. A turn the engine has not acknowledged yet has no checkpoint to name.
 */
export function TurnMarker({ turnId, busy }: { turnId?: string; busy: boolean }) {
  const sessionId = useSessionOnScreen((state) => state.sessionId)
  if (!sessionId || !turnId) return null
  const open = (intent: 'rewind' | 'fork') => void useRewind.getState().open(sessionId, { intent, turnId })
  return (
    <span className="turn-marker" role="group" aria-label="Checkpoint before this message">
      <button type="button" className="button button--small turn-marker__button" disabled={busy} title="Restore the code and/or the conversation as they were before this prompt" onClick={() => open('rewind')}>
        <span aria-hidden="true">⟲</span> Rewind to here
      </button>
      <button type="button" className="button button--small turn-marker__button" disabled={busy} title="Continue in a new session from before this prompt" onClick={() => open('fork')}>
        {/* U+2387: a branch sign that common UI fonts (DejaVu among them) carry; U+2442 is a box in most. */}
        <span aria-hidden="true">⎇</span> Fork from here
      </button>
    </span>
  )
}
