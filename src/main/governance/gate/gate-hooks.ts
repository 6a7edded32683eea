import { resultText } from '../../tools/result-text'
import type { AnyTool, ToolResult } from '../../tools/types'
import type { GateNotice } from './gate-settings'
import type { HookRunner } from '../hooks/runner'
import { StopHookGuard } from '../hooks/stop-guard'
import type { HookAggregate, HookEvent } from '../hooks/types'
import type { PermissionMode } from '../types'

/** What the hooks around a tool call or a turn tell the engine. */
export interface HookOutcome {
  /** Text for the model's context (joined). */
  additionalContext?: string
  /** A hook asked to stop the whole loop (`continue: false`). */
  stopReason?: string
}

/** The session-level hooks of a gate: around calls, prompts, stops, and the session's life. */
export interface SessionHooks {
  /** After a call ran; exit-2 stderr and `decision: block` reasons reach the model as context. */
  postToolUse(tool: AnyTool, input: unknown, result: ToolResult, toolUseId: string): Promise<HookOutcome>
  /** After a call failed (an error result). */
  postToolUseFailure(tool: AnyTool, input: unknown, error: string, toolUseId: string): Promise<HookOutcome>
  /** Whether a PostToolUse or PostToolUseFailure hook is configured now (it may change files: a formatter). */
  hasPostToolUseHooks(): boolean
  /** Before a prompt goes to the model: `blocked` erases it (the reason is shown to the user). */
  userPromptSubmit(prompt: string): Promise<HookOutcome & { blocked?: string }>
  /** The model wants to stop: `blockReason` forces one more round, never twice in a row. */
  stop(info?: { lastAssistantMessage?: string }): Promise<{ blockReason?: string }>
  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<HookOutcome>
  sessionEnd(reason: string): Promise<void>
  /** A subagent starts: its hooks' `additionalContext` goes to the subagent (exit 2 cannot block). */
  subagentStart(agent: { id: string; type: string }): Promise<HookOutcome>
  /** A subagent wants to stop: `blockReason` forces one more round, never twice in a row. */
  subagentStop(agent: { id: string; type: string; transcriptPath: string }, info: { lastAssistantMessage: string }): Promise<{ blockReason?: string }>
  /** Before a summarizing compaction (`trigger` manual or auto): exit 2 or `decision: block` keeps the conversation as it is. */
  preCompact(trigger: 'manual' | 'auto', customInstructions: string): Promise<{ blocked?: string }>
  /** After one, with the summary the model will read. */
  postCompact(trigger: 'manual' | 'auto', summary: string): Promise<void>
  /** Before `/model` switches (Claude Code 2.1.328): exit 2 or `decision: block` keeps the model; so does a hook that times out. */
  preModelSwitch(change: ModelSwitch): Promise<{ blocked?: string }>
  /** After the switch. */
  postModelSwitch(change: ModelSwitch): Promise<void>
}

/** A model switch as the PreModelSwitch / PostModelSwitch input names it. */
export interface ModelSwitch {
  from_model: string
  to_model: string
  /** What was asked for (an alias, an id), or null for "back to the default". */
  requested_model: string | null
  source: 'command' | 'picker' | 'sdk'
  /** Tokens the next request re-sends (0 before the first reply). */
  context_tokens: number
}

interface Deps {
  hooks: HookRunner
  cwd(): string
  mode(): PermissionMode
  /** Re-reads settings if they changed (so the hook list is current). */
  refresh(): void
  notice(notice: GateNotice): void
}

/**
 * Builds {@link SessionHooks} over a {@link HookRunner}. Contract: none of them throws; a hook that
 * fails is a notice, never a blocked action (only exit 2 or a JSON decision blocks).
 */
export function createSessionHooks(deps: Deps): SessionHooks {
  const guard = new StopHookGuard()
  const fire = async (event: HookEvent, fields: Record<string, unknown>): Promise<HookAggregate | undefined> => {
    deps.refresh()
    if (!deps.hooks.has(event)) return undefined
    const aggregate = await deps.hooks.fire(event, fields, { cwd: deps.cwd(), permissionMode: deps.mode() })
    for (const error of aggregate.errors) deps.notice({ level: 'warning', message: `${event} hook failed: ${error}` })
    for (const message of aggregate.systemMessages) deps.notice({ level: 'info', message })
    return aggregate
  }
  const outcome = (aggregate: HookAggregate | undefined, extra: string[] = []): HookOutcome => {
    const context = [...extra, ...(aggregate?.additionalContext ?? [])].filter((text) => text.trim() !== '')
    return {
      ...(context.length ? { additionalContext: context.join('\n') } : {}),
      ...(aggregate?.stop ? { stopReason: aggregate.stopReason ?? 'A hook stopped the session.' } : {}),
    }
  }
  return {
    async postToolUse(tool, input, result, toolUseId) {
      const aggregate = await fire('PostToolUse', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId, tool_response: responseOf(result) })
      return outcome(aggregate, aggregate?.blocked && aggregate.blockReason ? [`PostToolUse hook: ${aggregate.blockReason}`] : [])
    },
    hasPostToolUseHooks() {
      deps.refresh()
      return deps.hooks.has('PostToolUse') || deps.hooks.has('PostToolUseFailure')
    },
    async postToolUseFailure(tool, input, error, toolUseId) {
      const aggregate = await fire('PostToolUseFailure', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId, error })
      return outcome(aggregate)
    },
    async userPromptSubmit(prompt) {
      guard.reset()
      const aggregate = await fire('UserPromptSubmit', { prompt })
      return { ...outcome(aggregate), ...(aggregate?.blocked ? { blocked: aggregate.blockReason ?? 'A UserPromptSubmit hook blocked the prompt.' } : {}) }
    },
    async stop(info = {}) {
      const aggregate = await fire('Stop', { stop_hook_active: guard.active, last_assistant_message: info.lastAssistantMessage ?? '' })
      if (aggregate?.blocked && guard.permitContinue()) return { blockReason: aggregate.blockReason ?? 'A Stop hook asked to continue.' }
      if (aggregate?.blocked) deps.notice({ level: 'warning', message: 'A Stop hook blocked twice in a row; the turn ends anyway.' })
      guard.reset()
      return {}
    },
    async sessionStart(source) {
      return outcome(await fire('SessionStart', { source }))
    },
    async sessionEnd(reason) {
      await fire('SessionEnd', { reason })
    },
    async subagentStart(agent) {
      return outcome(await fire('SubagentStart', { agent_id: agent.id, agent_type: agent.type }))
    },
    async subagentStop(agent, info) {
      const aggregate = await fire('SubagentStop', {
        agent_id: agent.id,
        agent_type: agent.type,
        agent_transcript_path: agent.transcriptPath,
        last_assistant_message: info.lastAssistantMessage,
        stop_hook_active: guard.active,
      })
      // A subagent's gate serves that subagent alone, so the guard is its own.
      if (aggregate?.blocked && guard.permitContinue()) return { blockReason: aggregate.blockReason ?? 'A SubagentStop hook asked to continue.' }
      if (aggregate?.blocked) deps.notice({ level: 'warning', message: 'A SubagentStop hook blocked twice in a row; the subagent ends anyway.' })
      guard.reset()
      return {}
    },
    async preCompact(trigger, customInstructions) {
      const aggregate = await fire('PreCompact', { trigger, custom_instructions: customInstructions })
      return aggregate?.blocked ? { blocked: aggregate.blockReason ?? 'A PreCompact hook blocked the compaction.' } : {}
    },
    async postCompact(trigger, summary) {
      await fire('PostCompact', { trigger, compact_summary: summary })
    },
    async preModelSwitch(change) {
      const aggregate = await fire('PreModelSwitch', { ...change })
      if (aggregate?.blocked) return { blocked: aggregate.blockReason ?? 'A PreModelSwitch hook kept the model.' }
      // Claude Code keeps the model when a PreModelSwitch hook did not answer in time.
      const late = aggregate?.errors.find((error) => /timed out/.test(error))
      return late ? { blocked: `a PreModelSwitch hook did not answer in time (${late})` } : {}
    },
    async postModelSwitch(change) {
      await fire('PostModelSwitch', { ...change })
    },
  }
}

/** The tool result as a PostToolUse hook sees it (`tool_response`). */
function responseOf(result: ToolResult): Record<string, unknown> {
  return { content: resultText(result.content), is_error: result.isError === true, ...(result.details !== undefined ? { details: result.details } : {}) }
}
