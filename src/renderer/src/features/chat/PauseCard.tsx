import { useId, useState } from 'react'
import type { PauseChoice } from '../../../../shared/protocol/agent-event'
import { useChat } from './store'
import type { Turn } from './reducer'

const LABELS: Record<PauseChoice, string> = { continue: 'Continue', raise: 'Raise the cap', compact: 'Compact and go on', stop: 'Stop here' }

/**
 * The turn is paused before its next request: the budget guard says it would cross a spending cap,
 * or the loop brake saw the agent repeat itself. The card says why and offers what the guard
 * allows — raise the cap (to the amount typed), compact, continue, or stop.
 */
export function PauseCard({ pause }: { pause: NonNullable<Turn['pause']> }) {
  const resumePause = useChat((state) => state.resumePause)
  const [answered, setAnswered] = useState(false)
  const [raiseTo, setRaiseTo] = useState('')
  const inputId = useId()
  const title = pause.reason === 'budget' ? 'Paused at the spending cap' : 'Paused: the agent seems to be going round in circles'
  const raised = Number(raiseTo)
  const raiseValid = raiseTo.trim() !== '' && Number.isFinite(raised) && raised > 0
  const answer = (choice: PauseChoice) => {
    setAnswered(true)
    void resumePause(pause.pauseId, choice, choice === 'raise' ? raised : undefined)
  }
  return (
    <div className="turn-limit pause-card" role="group" aria-label={title}>
      <p className="pause-card__title">{title}</p>
      <p>{pause.message}</p>
      {pause.choices.includes('raise') && (
        <p className="pause-card__raise">
          <label htmlFor={inputId}>New cap</label>{' '}
          <input id={inputId} type="number" min="0" step="any" inputMode="decimal" value={raiseTo} disabled={answered} onChange={(event) => setRaiseTo(event.target.value)} />
        </p>
      )}
      <div className="turn-limit__actions">
        {pause.choices.map((choice) => (
          <button
            key={choice}
            type="button"
            className={choice === pause.choices[0] ? 'button button--primary button--small' : 'button button--small'}
            disabled={answered || (choice === 'raise' && !raiseValid)}
            onClick={() => answer(choice)}
          >
            {LABELS[choice]}
          </button>
        ))}
      </div>
    </div>
  )
}
