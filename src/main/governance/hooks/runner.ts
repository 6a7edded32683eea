import { childEnvironment, type ChildEnvPolicy } from '../../base/child-env'
import { analyzeBashSync } from '../bash/analyze'
import { bashParserIfReady } from '../bash/parser'
import { matchBashRule } from '../decide/match'
import { parseRule, toolNameMatches } from '../rules/parse'
import type { LoadedHook } from '../settings/types'
import type { HookLog } from './log'
import { matcherMatches } from './matcher'
import { capHookText, emptyAggregate, foldRun } from './output'
import { runCommandHook } from './run-command'
import { EVENTS_WITHOUT_MATCHER, type HookAggregate, type HookEvent } from './types'

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

/**
 * Runs Claude Code command hooks. All matching handlers of one event run in parallel (identical
 * ones once) and their results are combined (deny > defer > ask > allow).
 * Contract: never throws; failures are in the aggregate's `errors` and in the log.
 */
export class HookRunner {
  private opts: HookRunnerOptions

  constructor(opts: HookRunnerOptions) {
    this.opts = { ...opts }
  }

  /** Replaces the configured hooks (settings were re-read); runs already started are unaffected. */
  setHooks(hooks: LoadedHook[], disabled = false): void {
    this.opts = { ...this.opts, hooks, disabled }
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
      if (!EVENTS_WITHOUT_MATCHER.has(event) && !matcherMatches(h.matcher, value)) return false
      if (h.handler.if !== undefined && !ifMatches(h.handler.if, fields)) return false
      const key = JSON.stringify([h.handler.type, h.handler.command, h.handler.args, h.handler.shell])
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    const input = { session_id: this.opts.sessionId, transcript_path: this.opts.transcriptPath ?? '', cwd: o.cwd, permission_mode: o.permissionMode, hook_event_name: event, ...this.opts.inputFields, ...fields }
    const stdin = JSON.stringify(input)
    const runs = await Promise.all(
      selected.map(async (h) => {
        const label = `${h.handler.command ?? h.handler.type} (${h.file ?? h.source})`
        if (h.handler.type !== 'command' || !h.handler.command) {
          const run = { exitCode: null, stdout: '', stderr: '', durationMs: 0, timedOut: false, error: `hook type "${h.handler.type}" is not supported; only "command"` }
          return { h, run, label }
        }
        const timeoutS = h.handler.timeout ?? (event === 'UserPromptSubmit' ? PROMPT_TIMEOUT_S : DEFAULT_TIMEOUT_S)
        const env = { ...childEnvironment(this.opts.env ?? process.env, this.opts.childEnv?.()), CLAUDE_PROJECT_DIR: this.opts.projectRoot, SOUS_PROJECT_DIR: this.opts.projectRoot }
        const run = await runCommandHook({ command: h.handler.command, args: h.handler.args, shell: h.handler.shell, stdin, cwd: o.cwd, env, timeoutMs: timeoutS * 1000, signal: o.signal })
        return { h, run, label }
      }),
    )
    for (const { h, run, label } of runs) {
      // The log keeps hundreds of firings: a preview of each stream is enough to read.
      this.opts.log?.add({
        ...run,
        stdout: capHookText(run.stdout),
        stderr: capHookText(run.stderr),
        at: Date.now(),
        event,
        matcher: h.matcher,
        command: [h.handler.command ?? h.handler.type, ...(h.handler.args ?? [])].join(' '),
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
  if (typeof command !== 'string' || !bashParserIfReady()) return true
  const a = analyzeBashSync(command, { cwd: '/', projectRoot: '/' })
  if (a.problems.some((p) => /syntax|incomplete/.test(p))) return true
  const loaded = { parsed: r, origin: { text: rule, behavior: 'ask' as const, source: 'session' as const }, sourceRoot: '/' }
  return a.commands.some((c) => c.argv.length > 0 && matchBashRule([loaded], c, 'ask') !== undefined)
}
