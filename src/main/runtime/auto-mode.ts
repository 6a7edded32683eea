import { projectDataDir } from '../base/paths'
import { autoAskFile } from '../governance/auto/ask-patterns'
import type { AutoDecision } from '../governance/auto/decision-log'
import type { AutoModeOptions, AutoOrigin } from '../governance/gate/auto-stage'
import { askOnce, SMALL_FAST_MODEL } from '../services/model/ask'
import type { ModelService } from '../services/model/types'
import type { RuntimeParts } from './shared'

/**
 * Auto mode's classifier for one session: its requests go through the session's model service (so
 * they count toward its spend), to `CLAUDE_CODE_AUTO_MODE_MODEL`, `autoMode.model` or the small,
 * fast model; `SOUS_AUTO_MODE_TIMEOUT_MS` bounds each one (default a few seconds).
 */
export function autoModeOptions(parts: RuntimeParts, projectPath: string, model: () => Promise<ModelService>): AutoModeOptions {
  const { env, home } = parts.options
  const timeout = Number(env['SOUS_AUTO_MODE_TIMEOUT_MS'])
  return {
    ask: async ({ system, user, model: name, signal }) => (await askOnce(await model(), { model: name ?? SMALL_FAST_MODEL, system, user, maxTokens: 200, signal })).text,
    defaultModel: SMALL_FAST_MODEL,
    ...(env['CLAUDE_CODE_AUTO_MODE_MODEL'] && { envModel: env['CLAUDE_CODE_AUTO_MODE_MODEL'] }),
    ...(Number.isFinite(timeout) && timeout > 0 && { timeoutMs: timeout }),
    patternsFile: autoAskFile(projectDataDir(home, projectPath)),
  }
}

/** The decision as the `auto_decision` event the tool card reads (a subagent's names it and its Agent call). */
export function autoDecisionEvent(sessionId: string, decision: AutoDecision, origin?: AutoOrigin) {
  return {
    type: 'auto_decision' as const,
    sessionId,
    agentId: origin?.agentId ?? 'main',
    ...(origin?.parentToolUseId !== undefined && { parentToolUseId: origin.parentToolUseId }),
    toolUseId: decision.toolUseId,
    toolName: decision.toolName,
    decisionId: decision.id,
    decision: decision.decision,
    reason: decision.reason,
    pattern: decision.pattern,
    durationMs: decision.durationMs,
    model: decision.model,
  }
}
