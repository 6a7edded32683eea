import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { EffortLevel, ReasoningPreference } from '../services/model/capabilities'
import type { SessionPauseDesk } from './pause-desk'
import { RunGuard } from './run-guard'
import type { SessionGuardSetup } from './session-types'

// What the session needs of the guard, from one place (its own imports are many already).
export { SessionPauseDesk } from './pause-desk'
export type { PauseAnswer } from './run-guard'
export type { EffortLevel, ReasoningPreference }

/** What the main agent's guard of one turn needs from its session. */
export interface MainGuardHost {
  sessionId: string
  setup: SessionGuardSetup
  emit(event: AgentEvent): void
  /** Someone can answer a pause (the app): the turn waits at the desk. */
  desk?: SessionPauseDesk
  signal: AbortSignal
  requestCompaction(): void
  lastPrompt: { tokens: number }
  /** Whether the settings problems were said already (once a session); set here. */
  said: { problems: boolean }
}

/** The budget guard and loop brake of one main-agent turn; the settings' problems are said with the first. */
export function mainGuard(host: MainGuardHost): RunGuard {
  const identity = { sessionId: host.sessionId, agentId: 'main' }
  if (!host.said.problems) {
    host.said.problems = true
    for (const problem of host.setup.problems) host.emit({ ...identity, type: 'notice', level: 'warning', message: problem, topic: 'budget' })
  }
  return new RunGuard({
    meter: host.setup.meter,
    loopBrake: host.setup.loopBrake,
    identity,
    emit: host.emit,
    ...(host.desk && { desk: { desk: host.desk, signal: host.signal } }),
    requestCompaction: host.requestCompaction,
    lastPrompt: host.lastPrompt,
  })
}

/**
 * `/think`: thinking on or off and the effort level, changed in place (the session's subagents
 * hold the same preference object). Answers what is now in force.
 */
export function changeReasoning(preference: ReasoningPreference, change: { thinking?: boolean; effort?: EffortLevel }): { thinking: boolean; effort?: EffortLevel } {
  if (change.thinking !== undefined) preference.thinking = change.thinking
  if (change.effort) preference.effort = change.effort
  // Turning thinking on again also lifts a `MAX_THINKING_TOKENS=0` from the environment.
  if (change.thinking === true && preference.thinkingBudget === 0) delete preference.thinkingBudget
  return { thinking: preference.thinking !== false && preference.thinkingBudget !== 0, ...(preference.effort && { effort: preference.effort }) }
}
