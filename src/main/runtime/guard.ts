import { join } from 'node:path'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { projectDataDir } from '../base/paths'
import type { RequestGuard } from '../engine/guard'
import { thinkingBudgetFromEnv, type ReasoningPreference } from '../services/model/capabilities'
import { readGuardSettings } from '../session/guard-settings'
import { RunGuard } from '../session/run-guard'
import type { SessionGuardSetup } from '../session/session-types'
import { SpendMeter } from '../session/spend-meter'
import { unattended } from './options'
import type { RuntimeParts } from './shared'

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
    display: unattended(options) ? 'omitted' : 'summarized',
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

