import { childEnvironment, type ChildEnvPolicy } from '../../base/child-env'
import { bashAnalyzerIfReady } from '../bash/analyzer'
import { matchBashRule } from '../decide/match'
import { parseRule, toolNameMatches } from '../rules/parse'
import type { LoadedHook } from '../settings/types'
import type { HookLog } from './log'
import { matcherMatches } from './matcher'
import { capHookText, emptyAggregate, foldRun } from './output'
import { runCommandHook } from './run-command'
import { runHttpHook } from './run-http'
import { runPromptHook, type HookModelAsk } from './run-prompt'
import { EVENTS_WITHOUT_MATCHER, type HookAggregate, type HookEvent, type HookRun } from './types'

/** Options of {@link HookRunner}. */
export interface HookRunnerOptions {
  hooks: LoadedHook[]
  /** `disableAllHooks` from settings. */
  disabled?: boolean
  sessionId: string
  transcriptPath?: string
  projectRoot: string
  log?: HookLog
  /** What hooks start from (default this process's); Sous's credentials are always held back. */
  env?: NodeJS.ProcessEnv
  /** The user's choice of further variables to hold back or pass (see base/child-env). */
  childEnv?: () => ChildEnvPolicy
  /** Fields every input carries besides the common ones: a subagent's `agent_id` and `agent_type`. */
  inputFields?: Record<string, unknown>
  /** The small-model request `prompt` handlers make (the session's model service). */
  askModel?: HookModelAsk
  /** `allowedHttpHookUrls` from the settings (also set by {@link HookRunner.setHooks}). */
  allowedHttpHookUrls?: readonly string[]
}

/** Per-firing details. */
export interface FireOptions {
  cwd: string
  permissionMode: string
  signal?: AbortSignal
  /** Overrides the value the matcher is tested against. */
  matchValue?: string
}

const DEFAULT_TIMEOUT_S = 600
const PROMPT_TIMEOUT_S = 30
/** A `prompt` handler's model request (Claude Code's default for prompt hooks). */
const PROMPT_HOOK_TIMEOUT_S = 30

/** The handler types Sous runs; `agent` and `mcp_tool` (and unknown types) are shown, not run. */
const RUN_TYPES = new Set(['command', 'http', 'prompt'])

/** Why Sous does not run a handler, or undefined when it does. */
export function notRunBySous(handler: LoadedHook['handler']): string | undefined {
  if (RUN_TYPES.has(handler.type)) return undefined
  if (handler.type === 'agent') return 'not run by Sous: agent hooks (a subagent judging the event) are not supported yet'
  if (handler.type === 'mcp_tool') return 'not run by Sous: mcp_tool hooks (calling an MCP tool) are not supported yet'
  return `not run by Sous: "${handler.type}" is not a hook handler type (command, http, prompt, agent, mcp_tool)`
}

/** A handler as one line for the log and the inspector. */
export function handlerText(handler: LoadedHook['handler']): string {
  if (handler.type === 'http') return `POST ${handler.url ?? '(no url)'}`
  if (handler.type === 'prompt' || handler.type === 'agent') return `${handler.type}: ${handler.prompt ?? '(no prompt)'}${handler.model ? ` (${handler.model})` : ''}`
  if (handler.type === 'mcp_tool') return `mcp_tool ${String((handler as Record<string, unknown>)['server'] ?? '?')}/${String((handler as Record<string, unknown>)['tool'] ?? '?')}`
  return [handler.command ?? `(${handler.type} hook)`, ...(handler.args ?? [])].join(' ')
}

function labelOf(h: LoadedHook): string {
  return `${handlerText(h.handler)} (${h.file ?? h.source})`
}

/**
 * Runs Claude Code hooks: `command` (shell or exec form), `http` and `prompt` handlers. All matching handlers of one event run in parallel (identical
 * ones once) and their results are combined (deny > defer > ask > allow).
 * Contract: never throws; failures are in the aggregate's `errors` and in the log.
 */
export class HookRunner {
  private opts: HookRunnerOptions

  constructor(opts: HookRunnerOptions) {
    this.opts = { ...opts }
  }

  /** Replaces the configured hooks (settings were re-read); runs already started are unaffected. */
  setHooks(hooks: LoadedHook[], disabled = false, allowedHttpHookUrls: readonly string[] = this.opts.allowedHttpHookUrls ?? []): void {
    this.opts = { ...this.opts, hooks, disabled, allowedHttpHookUrls }
  }

  /** One handler's run, by its type. Contract: never throws. */
  private runOne(h: LoadedHook, event: HookEvent, stdin: string, o: FireOptions): Promise<HookRun> {
    const handler = h.handler
    const timeoutS = handler.timeout ?? (event === 'UserPromptSubmit' ? PROMPT_TIMEOUT_S : handler.type === 'prompt' ? PROMPT_HOOK_TIMEOUT_S : DEFAULT_TIMEOUT_S)
    const env = { ...childEnvironment(this.opts.env ?? process.env, this.opts.childEnv?.()), CLAUDE_PROJECT_DIR: this.opts.projectRoot, SOUS_PROJECT_DIR: this.opts.projectRoot }
    const timeoutMs = timeoutS * 1000
    if (handler.type === 'command' && handler.command) {
      return runCommandHook({ command: handler.command, args: handler.args, shell: handler.shell, stdin, cwd: o.cwd, env, timeoutMs, signal: o.signal })
    }
    if (handler.type === 'http' && handler.url) {
      return runHttpHook({ url: handler.url, body: stdin, headers: handler.headers, allowedEnvVars: handler.allowedEnvVars, env, allowedUrls: this.opts.allowedHttpHookUrls ?? [], timeoutMs, signal: o.signal })
    }
    if (handler.type === 'prompt' && handler.prompt) {
      return runPromptHook({ event, prompt: handler.prompt, input: stdin, model: handler.model, ask: this.opts.askModel, timeoutMs, signal: o.signal })
    }
    const missing = handler.type === 'command' ? 'command' : handler.type === 'http' ? 'url' : 'prompt'
    return Promise.resolve({ exitCode: null, stdout: '', stderr: '', durationMs: 0, timedOut: false, error: `${handler.type} hook has no "${missing}"` })
  }

  /** True when at least one hook is configured for the event (lets callers skip building input). */
  has(event: HookEvent): boolean {
    return !this.opts.disabled && this.opts.hooks.some((h) => h.event === event)
  }

  /** Fires an event. `fields` are the event-specific input fields (tool_name, tool_input, prompt…). */
  async fire(event: HookEvent, fields: Record<string, unknown>, o: FireOptions): Promise<HookAggregate> {
    const agg = emptyAggregate()
    if (this.opts.disabled) return agg
    const value = o.matchValue ?? matchValueOf(event, fields)
    const seen = new Set<string>()
    const selected = this.opts.hooks.filter((h) => {
      if (h.event !== event) return false
      // agent and mcp_tool handlers are listed, not run (the inspector says so: notRunBySous).
      if (notRunBySous(h.handler) !== undefined) return false
      if (!EVENTS_WITHOUT_MATCHER.has(event) && !matcherMatches(h.matcher, value)) return false
      if (h.handler.if !== undefined && !ifMatches(h.handler.if, fields)) return false
      const key = JSON.stringify([h.handler.type, h.handler.command, h.handler.args, h.handler.shell, h.handler.url, h.handler.prompt, h.handler.model])
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    const input = { session_id: this.opts.sessionId, transcript_path: this.opts.transcriptPath ?? '', cwd: o.cwd, permission_mode: o.permissionMode, hook_event_name: event, ...this.opts.inputFields, ...fields }
    const stdin = JSON.stringify(input)
    const runs = await Promise.all(selected.map(async (h) => ({ h, run: await this.runOne(h, event, stdin, o), label: labelOf(h) })))
    for (const { h, run, label } of runs) {
      // The log keeps hundreds of firings: a preview of each stream is enough to read.
      this.opts.log?.add({
        ...run,
        stdout: capHookText(run.stdout),
        stderr: capHookText(run.stderr),
        at: Date.now(),
        event,
        matcher: h.matcher,
        command: handlerText(h.handler),
        input,
        source: h.file ?? h.source,
        projectRoot: this.opts.projectRoot,
        sessionId: this.opts.sessionId,
      })
      foldRun(agg, event, run, label)
    }
    return agg
  }
}

function matchValueOf(event: HookEvent, f: Record<string, unknown>): string {
  const s = (k: string): string => (typeof f[k] === 'string' ? (f[k] as string) : '')
  switch (event) {
    case 'SessionStart':
      return s('source')
    case 'PreCompact':
    case 'PostCompact':
      return s('trigger')
    case 'SubagentStart':
    case 'SubagentStop':
      return s('agent_type')
    case 'Notification':
      return s('notification_type')
    case 'SessionEnd':
      return s('reason')
    case 'PreModelSwitch':
    case 'PostModelSwitch':
      return s('to_model')
    default:
      return s('tool_name')
  }
}

/** The `if` filter in permission-rule syntax; fails open (runs the hook) when it cannot tell. */
function ifMatches(rule: string, f: Record<string, unknown>): boolean {
  const parsed = parseRule(rule)
  if (!parsed.ok) return true
  const tool = typeof f.tool_name === 'string' ? f.tool_name : ''
  const r = parsed.rule
  if (r.kind === 'tool') return toolNameMatches(r.tool, tool)
  if (r.kind !== 'bash' || tool !== 'Bash') return r.tool === tool
  const command = (f.tool_input as { command?: unknown } | undefined)?.command
  const analyzer = bashAnalyzerIfReady()
  if (typeof command !== 'string' || !analyzer) return true
  const a = analyzer.analyzeBashSync(command, { cwd: '/', projectRoot: '/' })
  if (a.problems.some((p) => /syntax|incomplete/.test(p))) return true
  const loaded = { parsed: r, origin: { text: rule, behavior: 'ask' as const, source: 'session' as const }, sourceRoot: '/' }
  return a.commands.some((c) => c.argv.length > 0 && matchBashRule([loaded], c, 'ask') !== undefined)
}
