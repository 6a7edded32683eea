import { suggestRules } from '../approvals/suggest'
import { AutoAskPatterns } from '../auto/ask-patterns'
import { classify, type AutoVerdict } from '../auto/classifier'
import { AutoDecisionLog, type AutoDecision } from '../auto/decision-log'
import { describeExplanation } from '../types'
import { allowCall } from './allow-call'
import type { AutoMode, AutoModeOptions, AutoOrigin } from './types'

export type { AutoMode, AutoModeOptions, AutoOrigin } from './types'

const PROMPTS_KEPT = 5

/**
 * Builds a session's auto mode; `record` hears every decision (the tool card's event). A
 * subagent's gate uses its session's (`PermissionGateOptions.autoModeShared`): one log, one set
 * of patterns, and the user's prompts to judge against.
 */
export function createAutoMode(o: { projectRoot: string; home: string; options?: AutoModeOptions; record?: (decision: AutoDecision, origin?: AutoOrigin) => void; notice(message: string): void }): AutoMode {
  const prompts: string[] = []
  const log = new AutoDecisionLog()
  const patterns = new AutoAskPatterns(o.projectRoot, o.options?.patternsFile ?? '', o.notice)
  return {
    patterns,
    notePrompt(prompt) {
      prompts.push(prompt)
      if (prompts.length > PROMPTS_KEPT) prompts.shift()
    },
    async judge(gate, call, origin) {
      const auto = o.options
      const ask = call.ask
      if (call.mode !== 'auto' || !auto || !ask?.classifiable || call.settings.disableAutoMode) return undefined
      // A saved pattern that cannot be read fails closed: nothing goes through the classifier.
      if (patterns.unreadable()) return undefined
      const model = auto.envModel?.trim() || call.settings.autoMode.model || auto.defaultModel
      const guidance = call.settings.autoMode
      const verdict: AutoVerdict = await classify(
        auto.ask,
        { toolName: call.tool.name, input: call.input, why: describeExplanation(ask.explanation), cwd: call.cwd, projectRoot: o.projectRoot, prompts, guidance },
        { model, ...(auto.timeoutMs !== undefined && { timeoutMs: auto.timeoutMs }), ...(call.signal && { signal: call.signal }) },
      )
      const pattern = suggestRules(call.tool.name, call.input, { cwd: call.cwd, projectRoot: o.projectRoot, home: o.home })[0] ?? call.tool.name
      const decision = log.add({
        toolUseId: call.toolUseId,
        toolName: call.tool.name,
        summary: summaryOf(call.tool.name, call.input),
        pattern,
        decision: verdict.decision,
        reason: verdict.reason,
        durationMs: verdict.durationMs,
        model,
        at: Date.now(),
        ...(origin && { agentId: origin.agentId }),
      })
      o.record?.(decision, origin)
      if (verdict.decision === 'allow') return allowCall(call)
      call.ask = { ...ask, explanation: { kind: 'mode', mode: 'auto', detail: `the classifier asked: ${verdict.reason} (${describeExplanation(ask.explanation)})` } }
      return undefined
    },
    decisions: () => log.list(),
    askNextTime(decisionId, scope) {
      const decision = log.get(decisionId)
      if (!decision) return `no auto-mode decision ${decisionId} in this session`
      const error = patterns.add(decision.pattern, scope)
      if (error) return error
      log.markAskNextTime(decision.pattern, scope)
      return undefined
    },
  }
}

/** The call in one line: its telling field, else its input as JSON (cut). */
export function summaryOf(toolName: string, input: unknown): string {
  const record = (input ?? {}) as Record<string, unknown>
  for (const key of ['command', 'file_path', 'notebook_path', 'url', 'path', 'pattern']) {
    if (typeof record[key] === 'string') return `${toolName} ${record[key] as string}`.slice(0, 300)
  }
  let json = ''
  try {
    json = JSON.stringify(input) ?? ''
  } catch {
    json = ''
  }
  return `${toolName} ${json.length > 200 ? `${json.slice(0, 199)}…` : json}`.trim()
}
