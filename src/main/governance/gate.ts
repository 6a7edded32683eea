import { homedir } from 'node:os'
import { projectDataDir } from '../base/paths'
import { resolveSandbox, type BashSandboxSource, type BashSandboxState } from '../tools/bash-sandbox'
import type { AnyTool, ToolContext, ToolPreview } from '../tools/types'
import type { ApprovalQueue } from './approvals/queue'
import { decisionForEdit } from './approvals/edit-approval'
import { suggestRules } from './approvals/suggest'
import { decide, type HookVerdict } from './decide/decide'
import { createSessionHooks, type SessionHooks } from './gate-hooks'
import { SettingsWatch, type GateNotice } from './gate-settings'
import type { HookRunner } from './hooks/runner'
import type { HookAggregate } from './hooks/types'
import type { LoadSettingsOptions } from './settings/load'
import type { SettingsDiagnostic } from './settings/types'
import { describeExplanation, type DecisionPreview, type Explanation, type PermissionDecision, type PermissionMode } from './types'

/** What the engine gets back for one call (its own type, restated so governance does not import the engine). */
export type GateDecision =
  | { behavior: 'allow'; updatedInput?: unknown; runAs?: string; userNote?: string }
  | { behavior: 'deny'; message: string }

/** A refused call, for `sous -p`'s report and the transcript. */
export interface GateDenial {
  toolName: string
  toolUseId: string
  input: unknown
  message: string
  /** What refused it: a rule or mode, a hook, the user, or nobody being there to ask. */
  reason: 'rule' | 'hook' | 'rejected' | 'aborted' | 'headless'
}

/** Options of {@link createPermissionGate}. */
export interface PermissionGateOptions {
  projectRoot: string
  /** The Bash tool's current directory moves; pass a function to follow it. */
  cwd: string | (() => string)
  sousHome: string
  mode: PermissionMode
  /** `--allowedTools`, `--disallowedTools`… (the `cli` settings source). */
  cliRules?: LoadSettingsOptions['cli']
  /** Managed policy file and home directory overrides (tests). */
  managedPath?: string
  home?: string
  approvals: ApprovalQueue
  /** Its hook list is replaced whenever the settings are re-read. */
  hooks: HookRunner
  /** No one to ask: every ask becomes a denial reported through `onDenial`. */
  headless: boolean
  /** The sandbox as probed at start-up (or how to start it); absent when none is configured. */
  sandbox?: BashSandboxSource
  sessionId: string
  transcriptPath?: string
  onDenial?(denial: GateDenial): void
  /** Configuration problems (once each), hook failures and hook system messages. */
  onNotice?(notice: GateNotice): void
  /** Session capabilities previews may need (file-state cache, Bash shell state). */
  toolContext?(): Partial<ToolContext>
}

/** The permission gate of one session: {@link canUseTool} plus the hooks around calls and turns. */
export interface PermissionGate extends SessionHooks {
  /**
   * May this call run? PreToolUse hooks → bash analysis → rules and mode → (ask) approval.
   * Contract: never throws; every path resolves to allow (possibly with a changed input) or deny
   * with a message for the model.
   */
  canUseTool(tool: AnyTool, input: unknown, toolUseId: string, opts?: { signal?: AbortSignal }): Promise<GateDecision>
  /**
   * The rules' and mode's verdict on a call, asking no one and running no hook: for work Sous does
   * on the user's behalf that must never prompt (a command's injected `!` lines, `@` includes),
   * where anything but `allow` means "do not do it". Never throws.
   */
  check(tool: AnyTool, input: unknown): Promise<PermissionDecision>
  /** Rejects every approval still pending (the user stopped the turn). */
  abortPending(): void
  setMode(mode: PermissionMode): void
  readonly mode: PermissionMode
  /** Re-reads the settings files now; returns this load's diagnostics. */
  reloadSettings(): SettingsDiagnostic[]
  /** Denials so far, oldest first. */
  denials(): GateDenial[]
}

/** Asks that no saved rule can ever silence: offering "always allow" for them would be a lie. */
const NO_RULE_HELPS = new Set<Explanation['kind']>(['bash-analysis', 'protected-path', 'settings-error'])

/** Builds the permission gate of a session (see ARCHITECTURE.md section 3 for the order). */
export function createPermissionGate(o: PermissionGateOptions): PermissionGate {
  let mode = o.mode
  let turn = new AbortController()
  const denialList: GateDenial[] = []
  const notice = (n: GateNotice): void => o.onNotice?.(n)
  const home = o.home ?? homedir()
  const watch = new SettingsWatch(o.projectRoot, { sousHome: o.sousHome, home, managedPath: o.managedPath, cli: o.cliRules }, notice)
  let hooksVersion = -1
  const cwd = (): string => (typeof o.cwd === 'function' ? o.cwd() : o.cwd)
  const settings = () => {
    const s = watch.current()
    if (watch.version !== hooksVersion) {
      o.hooks.setHooks(s.hooks, s.disableAllHooks)
      hooksVersion = watch.version
    }
    return s
  }
  const deny = (d: Omit<GateDenial, 'message'>, message: string): GateDecision => {
    const denial = { ...d, message }
    denialList.push(denial)
    o.onDenial?.(denial)
    return { behavior: 'deny', message }
  }
  const hookNotices = (agg: HookAggregate): void => {
    for (const e of agg.errors) notice({ level: 'warning', message: `Hook failed (the call went on): ${e}` })
    for (const m of agg.systemMessages) notice({ level: 'info', message: m })
  }

  async function canUseTool(tool: AnyTool, rawInput: unknown, toolUseId: string, opts: { signal?: AbortSignal } = {}): Promise<GateDecision> {
    const merged = settings()
    const here = cwd()
    const who = { toolName: tool.name, toolUseId }
    let input = rawInput
    let changed = false
    let verdict: HookVerdict | undefined
    if (o.hooks.has('PreToolUse')) {
      const agg = await o.hooks.fire('PreToolUse', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId }, { cwd: here, permissionMode: mode, signal: opts.signal })
      hookNotices(agg)
      // Exit 2 blocks before any rule is looked at, even an allow rule (Claude Code's protocol).
      if (agg.blocked) return deny({ ...who, input, reason: 'hook' }, `A PreToolUse hook blocked this call: ${agg.blockReason ?? 'no reason given'}`)
      if (agg.stop) return deny({ ...who, input, reason: 'hook' }, `A PreToolUse hook stopped the session: ${agg.stopReason ?? 'no reason given'}`)
      if (agg.updatedInput !== undefined) {
        const parsed = tool.inputSchema.safeParse(agg.updatedInput)
        if (!parsed.success) return deny({ ...who, input, reason: 'hook' }, `A PreToolUse hook replaced the input with one ${tool.name} does not accept: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
        input = parsed.data
        changed = true
      }
      if (agg.permission && agg.permission !== 'defer') verdict = { decision: agg.permission, reason: agg.permissionReason, source: 'PreToolUse hook' }
    }
    const allow = (updated?: unknown): GateDecision => (updated !== undefined ? { behavior: 'allow', updatedInput: updated } : changed ? { behavior: 'allow', updatedInput: input } : { behavior: 'allow' })
    let decision: PermissionDecision = await decide({ tool, input, mode, settings: merged, cwd: here, projectRoot: o.projectRoot, sessionGrants: o.approvals.sessionGrants, hook: verdict })
    decision = outsideSandbox(decision, tool, input, tool.name === 'Bash' ? await resolveSandbox(o.sandbox) : undefined, mode)
    if (decision.behavior === 'allow') return allow()
    if (decision.behavior === 'deny') return deny({ ...who, input, reason: decision.explanation.kind === 'hook' ? 'hook' : 'rule' }, decision.message)

    if (o.hooks.has('PermissionRequest')) {
      const agg = await o.hooks.fire('PermissionRequest', { tool_name: tool.name, tool_input: input, tool_use_id: toolUseId }, { cwd: here, permissionMode: mode, signal: opts.signal })
      hookNotices(agg)
      if (agg.permission === 'deny' || agg.blocked) return deny({ ...who, input, reason: 'hook' }, `A PermissionRequest hook refused this call: ${agg.permissionReason ?? agg.blockReason ?? 'no reason given'}`)
      if (agg.permission === 'allow') {
        const parsed = agg.updatedInput === undefined ? undefined : tool.inputSchema.safeParse(agg.updatedInput)
        if (parsed && !parsed.success) return deny({ ...who, input, reason: 'hook' }, `A PermissionRequest hook replaced the input with one ${tool.name} does not accept.`)
        return allow(parsed?.data)
      }
    }
    const why = describeExplanation(decision.explanation)
    if (o.headless) return deny({ ...who, input, reason: 'headless' }, `${tool.name} needs approval (${why}), and no one can approve it in headless mode. Allow it with --allowedTools or a permission rule.`)

    const signal = opts.signal ? AbortSignal.any([turn.signal, opts.signal]) : turn.signal
    const ctx = previewContext(o, here, toolUseId, signal)
    const preview = await safePreview(tool, input, ctx, decision.preview)
    const futile = NO_RULE_HELPS.has(decision.explanation.kind) || (decision.explanation.kind === 'sandbox' && disablesSandbox(input))
    const suggestions = futile ? [] : (decision.suggestions ?? suggestRules(tool.name, input, { cwd: here, projectRoot: o.projectRoot, home }))
    const pending = o.approvals.request({ sessionId: o.sessionId, toolUseId, toolName: tool.name, input, preview, explanation: decision.explanation, suggestions, signal })
    // Claude Code's Notification event: someone may want a ping when Sous waits for them. Not awaited.
    if (o.hooks.has('Notification')) {
      void o.hooks
        .fire('Notification', { message: `Sous needs your permission to use ${tool.name}`, notification_type: 'permission_prompt' }, { cwd: here, permissionMode: mode })
        .then(hookNotices, () => undefined)
    }
    const outcome = await pending
    if (outcome.behavior === 'allow') {
      if (outcome.warning) notice({ level: 'warning', message: `The rule was not saved: ${outcome.warning}` })
      if (outcome.edit) {
        const edited = decisionForEdit(preview, outcome.edit)
        if (edited.behavior === 'deny') return deny({ ...who, input, reason: 'rejected' }, edited.message)
        if (edited.runAs !== undefined) return edited
      }
      return allow()
    }
    return deny({ ...who, input, reason: outcome.reason }, outcome.message)
  }

  async function check(tool: AnyTool, input: unknown): Promise<PermissionDecision> {
    try {
      const decision = await decide({ tool, input, mode, settings: settings(), cwd: cwd(), projectRoot: o.projectRoot, sessionGrants: o.approvals.sessionGrants })
      return outsideSandbox(decision, tool, input, tool.name === 'Bash' ? await resolveSandbox(o.sandbox) : undefined, mode)
    } catch (error) {
      return { behavior: 'deny', message: `the permission check failed: ${(error as Error).message}`, explanation: { kind: 'default', detail: 'the permission check failed' } }
    }
  }

  const hooks = createSessionHooks({ hooks: o.hooks, cwd, mode: () => mode, refresh: settings, notice })
  return {
    ...hooks,
    canUseTool,
    check,
    abortPending() {
      turn.abort()
      turn = new AbortController()
    },
    setMode(next) {
      mode = next
    },
    get mode() {
      return mode
    },
    reloadSettings() {
      const { diagnostics } = watch.reload()
      settings()
      return diagnostics
    },
    denials: () => [...denialList],
  }
}

function disablesSandbox(input: unknown): boolean {
  return (input as { dangerouslyDisableSandbox?: unknown } | null)?.dangerouslyDisableSandbox === true
}

/**
 * Without a working sandbox, a command that changes things must not run on a mode's say-so alone
 * (acceptEdits, bypassPermissions) or a hook's: it asks, saying it runs outside the sandbox. An
 * allow rule or session grant the user wrote for this very command still counts.
 */
function outsideSandbox(d: PermissionDecision, tool: AnyTool, input: unknown, sandbox: BashSandboxState | undefined, mode: PermissionMode): PermissionDecision {
  if (tool.name !== 'Bash' || d.behavior !== 'allow' || !sandbox || sandbox.available) return d
  if (d.explanation.kind !== 'mode' && d.explanation.kind !== 'hook') return d
  let readOnly = false
  try {
    readOnly = tool.isReadOnly(input) === true
  } catch {
    readOnly = false
  }
  if (readOnly) return d
  const explanation: Explanation = { kind: 'sandbox', detail: `running outside the sandbox (${sandbox.reason})` }
  if (mode === 'dontAsk') return { behavior: 'deny', message: `Bash would run outside the sandbox (${sandbox.reason}) and dontAsk mode allows no prompt.`, explanation }
  return { behavior: 'ask', explanation }
}

function previewContext(o: PermissionGateOptions, cwd: string, toolUseId: string, signal: AbortSignal): ToolContext {
  return {
    cwd,
    projectRoot: o.projectRoot,
    projectDataDir: projectDataDir(o.sousHome, o.projectRoot),
    sessionId: o.sessionId,
    agentId: 'main',
    toolUseId,
    signal,
    progress: () => {},
    ...o.toolContext?.(),
  }
}

/** The tool's own preview (a diff, a parsed command); governance's when the tool has none or fails. */
async function safePreview(tool: AnyTool, input: unknown, ctx: ToolContext, fallback: DecisionPreview | undefined): Promise<ToolPreview | DecisionPreview | undefined> {
  try {
    return (await tool.preview?.(input, ctx)) ?? fallback
  } catch {
    return fallback
  }
}
