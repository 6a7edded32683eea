import { useState } from 'react'
import { useChat } from './store'

/**
 * The turn made as many model requests as its guard allows and waits: go on for another round,
 * or stop here (the guard is a setting).
 */
export function TurnLimitQuestion({ turns }: { turns: number }) {
  const continueTurn = useChat((state) => state.continueTurn)
  const [answered, setAnswered] = useState(false)
  const answer = (proceed: boolean) => {
    setAnswered(true)
    void continueTurn(proceed)
  }
  return (
    <div className="turn-limit" role="group" aria-label="Continue this turn?">
      <p>
        The agent has made {turns} model requests in this turn. Let it go on?
      </p>
      <div className="turn-limit__actions">
        <button type="button" className="button button--primary button--small" disabled={answered} onClick={() => answer(true)}>
          Continue
        </button>
        <button type="button" className="button button--small" disabled={answered} onClick={() => answer(false)}>
          Stop here
        </button>
      </div>
    </div>
  )
}
