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
  /** Before a prompt goes to the model: `blocked` erases it (the reason is shown to the user). */
  userPromptSubmit(prompt: string): Promise<HookOutcome & { blocked?: string }>
  /** The model wants to stop: `blockReason` forces one more round, never twice in a row. */
  stop(info?: { lastAssistantMessage?: string }): Promise<{ blockReason?: string }>
  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<HookOutcome>
  sessionEnd(reason: string): Promise<void>
}

interface Deps {
  hooks: HookRunner
  cwd(): string
  mode(): PermissionMode
  /** Re-reads settings if they changed (so the hook list is current). */
  refresh(): void
  notice(n: GateNotice): void
}

/**
 * Builds {@link SessionHooks} over a {@link HookRunner}. Contract: none of them throws; a hook that
 * fails is a notice, never a blocked action (only exit 2 or a JSON decision blocks).
 */
export function createSessionHooks(d: Deps): SessionHooks {
  const guard = new StopHookGuard()
  const fire = async (event: HookEvent, fields: Record<string, unknown>): Promise<HookAggregate | undefined> => {
    d.refresh()
    if (!d.hooks.has(event)) return undefined
    const agg = await d.hooks.fire(event, fields, { cwd: d.cwd(), permissionMode: d.mode() })
    for (const e of agg.errors) d.notice({ level: 'warning', message: `${event} hook failed: ${e}` })
    for (const m of agg.systemMessages) d.notice({ level: 'info', message: m })
    return agg
  }
  const outcome = (agg: HookAggregate | undefined, extra: string[] = []): HookOutcome => {
    const context = [...extra, ...(agg?.additionalContext ?? [])].filter((t) => t.trim() !== '')
    return {
      ...(context.length ? { additionalContext: context.join('\n') } : {}),
      ...(agg?.stop ? { stopReason: agg.stopReason ?? 'A hook stopped the session.' } : {}),
    }
  }
  return {
    async postToolUse(tool, input, result, toolUseId) {
      const agg = await fire('PostToolUse', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId, tool_response: responseOf(result) })
      return outcome(agg, agg?.blocked && agg.blockReason ? [`PostToolUse hook: ${agg.blockReason}`] : [])
    },
    async postToolUseFailure(tool, input, error, toolUseId) {
      const agg = await fire('PostToolUseFailure', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId, error })
      return outcome(agg)
    },
    async userPromptSubmit(prompt) {
      guard.reset()
      const agg = await fire('UserPromptSubmit', { prompt })
      return { ...outcome(agg), ...(agg?.blocked ? { blocked: agg.blockReason ?? 'A UserPromptSubmit hook blocked the prompt.' } : {}) }
    },
    async stop(info = {}) {
      const agg = await fire('Stop', { stop_hook_active: guard.active, last_assistant_message: info.lastAssistantMessage ?? '' })
      if (agg?.blocked && guard.permitContinue()) return { blockReason: agg.blockReason ?? 'A Stop hook asked to continue.' }
      if (agg?.blocked) d.notice({ level: 'warning', message: 'A Stop hook blocked twice in a row; the turn ends anyway.' })
      guard.reset()
      return {}
    },
    async sessionStart(source) {
      return outcome(await fire('SessionStart', { source }))
    },
    async sessionEnd(reason) {
      await fire('SessionEnd', { reason })
    },
  }
}

/** The tool result as a PostToolUse hook sees it (`tool_response`). */
function responseOf(result: ToolResult): Record<string, unknown> {
  const text = typeof result.content === 'string' ? result.content : result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('')
  return { content: text, is_error: result.isError === true, ...(result.details !== undefined ? { details: result.details } : {}) }
}
