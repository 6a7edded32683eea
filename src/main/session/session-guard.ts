import { join } from 'node:path'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { projectDataDir } from '../base/paths'
import type { RequestGuard } from '../engine/guard'
import { thinkingBudgetFromEnv, type EffortLevel, type ReasoningPreference } from '../services/model/capabilities'
import { readGuardSettings } from './guard-settings'
import type { SessionPauseDesk } from './pause-desk'
import { RunGuard } from './run-guard'
import type { RuntimeParts } from './runtime-parts'
import type { SessionGuardSetup } from './session-types'
import { SpendMeter } from './spend-meter'

// What the session needs of the guard, from one place (its own imports are many already).
export { SessionPauseDesk } from './pause-desk'
export type { PauseAnswer } from './run-guard'
export type { EffortLevel, ReasoningPreference }

/**
 * The guard's settings (caps, the loop brake, thinking and effort) for a session being opened:
 * the settings files, with the host's flags (`--max-budget-usd`, `--effort`…) on top, and the
 * spend meter every request of the session will go through.
 */
export function guardSetup(parts: RuntimeParts, projectPath: string): { guard: SessionGuardSetup; reasoning: ReasoningPreference } {
  const { options } = parts
  const settings = readGuardSettings(projectPath, { sousHome: options.home })
  const caps = { ...settings.budget, ...options.budget }
  const meter = new SpendMeter(caps, join(projectDataDir(options.home, projectPath), 'spend.json'))
  const budget = thinkingBudgetFromEnv(options.env)
  const effort = options.effort ?? settings.effort
  const reasoning: ReasoningPreference = {
    thinking: settings.thinking ?? true,
    ...(budget !== undefined && { thinkingBudget: budget }),
    ...(effort && { effort }),
    // The app folds thinking into the chat, so it asks for the summarized text; `-p` has nowhere
    // to show it and asks for none, as Claude Code's -p does.
    display: options.headless ? 'omitted' : 'summarized',
  }
  return { guard: { meter, loopBrake: settings.loopBrake, problems: settings.problems }, reasoning }
}

/**
 * A subagent's guard: its requests count toward the session's caps, but it cannot pause (nobody
 * sees its card), so a trip ends its run and the main agent's guard pauses before its next request.
 */
export function subagentGuard(setup: SessionGuardSetup, sessionId: string, emit: (event: AgentEvent) => void): (agent: { agentId: string; parentToolUseId?: string }) => RequestGuard {
  return (agent) => new RunGuard({ meter: setup.meter, loopBrake: setup.loopBrake, identity: { sessionId, ...agent }, emit, lastPrompt: { tokens: 0 } })
}

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
