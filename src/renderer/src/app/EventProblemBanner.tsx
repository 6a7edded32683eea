import { useSyncExternalStore } from 'react'
import { eventProblems } from '../api'

/**
 * Says so when Sous sent events the renderer could not trust (they did not match the contract and
 * were dropped), so a conversation or an approval that looks incomplete is explained, not silent.
 * The details are in the console; Dismiss hides the notice until the next one.
 */
export function EventProblemBanner() {
  const problems = useSyncExternalStore(eventProblems.subscribe, eventProblems.snapshot)
  if (problems.count === 0) return null
  const what = problems.count === 1 ? 'an event' : `${problems.count} events`
  return (
    <p className="connection-banner" role="alert">
      Sous sent {what} this window could not read ({problems.channels.join(', ')}); {problems.count === 1 ? 'it was' : 'they were'}{' '}
      ignored, so what is shown may be incomplete. Details are in the developer console.{' '}
      <button type="button" className="button button--quiet button--small" onClick={eventProblems.clear} aria-label="Dismiss the notice about unreadable events">
        ×
      </button>
    </p>
  )
}
