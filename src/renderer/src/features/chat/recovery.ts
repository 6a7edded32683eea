import type { Turn } from './reducer'

/**
 * One sentence on what the harness did when the model service misbehaved: retried, fell back to
 * another model, gave up. `undefined` when nothing went wrong.
 */
export function describeRecovery(turn: Pick<Turn, 'recovery' | 'end'>): string | undefined {
  const retries = turn.recovery?.retries ?? 0
  const fallback = turn.recovery?.fallback
  const failed = turn.end?.reason === 'model_error'
  if (retries === 0 && !fallback && !failed) return undefined
  const parts: string[] = []
  if (retries > 0) parts.push(`retried ${retries === 1 ? 'once' : `${retries} times`}`)
  if (fallback) parts.push(`fell back from ${fallback.from} to ${fallback.to}`)
  if (failed) parts.push(parts.length > 0 ? 'then gave up' : 'gave up (the error cannot be fixed by retrying)')
  else if (turn.end) parts.push('and recovered')
  else return `Sous ${parts.join(', ')}…`
  return `Sous ${parts.join(', ')}.`
}
