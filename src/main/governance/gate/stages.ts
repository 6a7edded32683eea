import { projectDataDir, toolResultsDir } from '../../base/paths'
import { resolveSandbox, type BashSandboxState } from '../../tools/bash-sandbox'
import type { AnyTool, ToolContext, ToolPreview } from '../../tools/types'
import { suggestRules } from '../approvals/suggest'
import { decide } from '../decide/decide'
import { describeExplanation, type DecisionPreview, type Explanation, type PermissionDecision } from '../types'
import type { GateCall, GateDecision, GateSession, PermissionGateOptions } from './types'
import { nobodyCanAnswer } from '../approvals/answerer'
import { allowCall } from './allow-call'

/**
 * The stages a tool call passes through in the permission gate, in order:
 * {@link preToolUseHooks} → {@link rulesAndMode} → {@link permissionRequestHooks} →
 * {@link noOneToAsk} → {@link askTheUser}. Each returns the gate's final answer, or `undefined` to
 * hand the call to the next stage; the last one always answers. Loaded behind a seam
 * (`stages-load.ts`) at the first call the gate judges, with the decision itself (`decide/`).
 */

export type { GateCall, GateSession } from './types'
export { allowCall } from './allow-call'

/** Asks that no saved rule can ever silence: offering "always allow" for them would be a lie. */
const NO_RULE_HELPS = new Set<Explanation['kind']>(['bash-analysis', 'protected-path', 'settings-error', 'reaches-denied'])

/**
 * PreToolUse hooks: exit 2 blocks before any rule is looked at, even an allow rule (Claude Code's
 * protocol); a replaced input must pass the tool's schema; a permission verdict goes to decide().
 */
export async function preToolUseHooks(gate: GateSession, call: GateCall): Promise<GateDecision | undefined> {
  const { hooks } = gate.options
  if (!hooks.has('PreToolUse')) return undefined
  const payload = { tool_name: call.tool.name, tool_input: call.input, tool_use_id: call.toolUseId }
  const aggregate = await hooks.fire('PreToolUse', payload, { cwd: call.cwd, permissionMode: call.mode, signal: call.signal })
  gate.hookNotices(aggregate)
  if (aggregate.blocked) return gate.refuse(call, 'hook', `A PreToolUse hook blocked this call: ${aggregate.blockReason ?? 'no reason given'}`)
  if (aggregate.stop) {
    // `continue: false`: this call is refused and the turn ends once its result is in.
    const why = aggregate.stopReason ?? 'no reason given'
    const refused = gate.refuse(call, 'hook', `A PreToolUse hook stopped the turn: ${why}`)
    return refused.behavior === 'deny' ? { ...refused, stopTurn: why } : refused
  }
  if (aggregate.updatedInput !== undefined) {
    const parsed = call.tool.inputSchema.safeParse(aggregate.updatedInput)
    if (!parsed.success) {
      return gate.refuse(call, 'hook', `A PreToolUse hook replaced the input with one ${call.tool.name} does not accept: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
    }
    call.input = parsed.data
    call.replaced = true
  }
  if (aggregate.permission && aggregate.permission !== 'defer') {
    call.hookVerdict = { decision: aggregate.permission, reason: aggregate.permissionReason, source: 'PreToolUse hook' }
  }
  return undefined
}

/** Rules, mode and bash analysis (decide()), then the sandbox check; an ask goes on to the next stages. */
export async function rulesAndMode(gate: GateSession, call: GateCall): Promise<GateDecision | undefined> {
  const decision = await verdict(gate.options, call, (reason, bypass) => gate.sandboxUnavailable(reason, bypass))
  if (decision.behavior === 'allow') return allowCall(call)
  if (decision.behavior === 'deny') return gate.refuse(call, decision.explanation.kind === 'hook' ? 'hook' : 'rule', decision.message)
  call.ask = decision
  return undefined
}

/**
 * What the rules, the mode and the sandbox's state say of a call (no hook runs, no one is asked);
 * `onSandboxUnavailable` hears when a Bash call finds no working sandbox.
 */
export async function verdict(
  options: PermissionGateOptions,
  call: Pick<GateCall, 'tool' | 'input' | 'mode' | 'settings' | 'cwd' | 'hookVerdict' | 'autoAsk'>,
  onSandboxUnavailable?: (reason: string, bypass: boolean) => void,
): Promise<PermissionDecision> {
  const decided = await decide({
    tool: call.tool,
    input: call.input,
    mode: call.mode,
    settings: call.settings,
    cwd: call.cwd,
    projectRoot: options.projectRoot,
    sessionGrants: options.approvals.sessionGrants,
    hook: call.hookVerdict,
    ...(call.autoAsk && { autoAsk: call.autoAsk }),
    // Results too large for the conversation are saved here, and the model is told to Read them.
    readableRoots: [toolResultsDir(projectDataDir(options.sousHome, options.projectRoot), options.sessionId)],
  })
  const sandbox = call.tool.name === 'Bash' ? await resolveSandbox(options.sandbox) : undefined
  if (sandbox && !sandbox.available) onSandboxUnavailable?.(sandbox.reason, call.mode === 'bypassPermissions')
  return outsideSandbox(decided, call, sandbox)
}

/** PermissionRequest hooks may answer an ask before the user sees it. */
export async function permissionRequestHooks(gate: GateSession, call: GateCall): Promise<GateDecision | undefined> {
  const { hooks } = gate.options
  if (!hooks.has('PermissionRequest')) return undefined
  const payload = { tool_name: call.tool.name, tool_input: call.input, tool_use_id: call.toolUseId }
  const aggregate = await hooks.fire('PermissionRequest', payload, { cwd: call.cwd, permissionMode: call.mode, signal: call.signal })
  gate.hookNotices(aggregate)
  if (aggregate.permission === 'deny' || aggregate.blocked) {
    return gate.refuse(call, 'hook', `A PermissionRequest hook refused this call: ${aggregate.permissionReason ?? aggregate.blockReason ?? 'no reason given'}`)
  }
  if (aggregate.permission !== 'allow') return undefined
  const parsed = aggregate.updatedInput === undefined ? undefined : call.tool.inputSchema.safeParse(aggregate.updatedInput)
  if (parsed && !parsed.success) return gate.refuse(call, 'hook', `A PermissionRequest hook replaced the input with one ${call.tool.name} does not accept.`)
  return allowCall(call, parsed?.data)
}

/** Unattended (`sous -p`): an ask is a denial that says how to allow the call. */
export function noOneToAsk(gate: GateSession, call: GateCall): GateDecision | undefined {
  if (gate.options.approvals.attended) return undefined
  const why = call.ask ? describeExplanation(call.ask.explanation) : 'no rule allows it'
  return gate.refuse(call, 'headless', nobodyCanAnswer(call.tool.name, why))
}

/**
 * The user decides: the tool's preview (a diff, the parsed command) and the rules "always" could
 * save go to the approval queue; an approved edit may come back changed (see edit-approval.ts).
 */
export async function askTheUser(gate: GateSession, call: GateCall): Promise<GateDecision> {
  const { options } = gate
  const ask = call.ask ?? { behavior: 'ask', explanation: { kind: 'default', detail: 'no rule decides this call' } }
  const signal = call.signal ? AbortSignal.any([gate.turnSignal(), call.signal]) : gate.turnSignal()
  const preview = withRealPath(await safePreview(call.tool, call.input, previewContext(options, call, signal), ask.preview), ask.preview)
  const futile = NO_RULE_HELPS.has(ask.explanation.kind) || (ask.explanation.kind === 'sandbox' && disablesSandbox(call.input))
  const suggestions = futile ? [] : (ask.suggestions ?? suggestRules(call.tool.name, call.input, { cwd: call.cwd, projectRoot: options.projectRoot, home: gate.home }))
  const pending = options.approvals.request({
    sessionId: options.sessionId,
    toolUseId: call.toolUseId,
    toolName: call.tool.name,
    input: call.input,
    preview,
    explanation: ask.explanation,
    suggestions,
    signal,
    ...(options.agent && { agent: options.agent }),
  })
  // Claude Code's Notification event: someone may want a ping when Sous waits for them. Not awaited.
  if (options.hooks.has('Notification')) {
    void options.hooks
      .fire('Notification', { message: `${options.agent ? `The ${options.agent.type} agent` : 'Sous'} needs your permission to use ${call.tool.name}`, notification_type: 'permission_prompt' }, { cwd: call.cwd, permissionMode: call.mode })
      .then(gate.hookNotices, (error: unknown) => gate.notice({ level: 'warning', message: `The Notification hook failed: ${String(error)}` }))
  }
  const outcome = await pending
  if (outcome.behavior !== 'allow') return gate.refuse(call, outcome.reason, outcome.message)
  if (outcome.warning) gate.notice({ level: 'warning', message: `The rule was not saved: ${outcome.warning}` })
  if (outcome.edit) {
    // Loaded here, with the `diff` package it needs, only when the user edited a proposed change.
    const { decisionForEdit } = await import('../approvals/edit-approval')
    const edited = decisionForEdit(preview, outcome.edit)
    if (edited.behavior === 'deny') return gate.refuse(call, 'rejected', edited.message)
    if (edited.runAs !== undefined) return edited
  }
  return allowCall(call)
}

function disablesSandbox(input: unknown): boolean {
  return (input as { dangerouslyDisableSandbox?: unknown } | null)?.dangerouslyDisableSandbox === true
}

/**
 * Without a working sandbox, a command that changes things must not run on a mode's say-so alone
 * (acceptEdits) or a hook's: it asks, saying it runs outside the sandbox. An allow rule or session
 * grant the user wrote for this very command still counts, and so does bypassPermissions — the
 * user's explicit choice to run everything, which the gate announces once (`sandboxUnavailable`).
 */
function outsideSandbox(decision: PermissionDecision, call: Pick<GateCall, 'tool' | 'input' | 'mode'>, sandbox: BashSandboxState | undefined): PermissionDecision {
  if (call.tool.name !== 'Bash' || !sandbox || sandbox.available) return decision
  // Auto mode's classifier may not send a command out unconfined: without a sandbox the ask is a floor.
  if (decision.behavior === 'ask' && decision.classifiable && call.mode === 'auto') {
    const { classifiable: _floor, ...ask } = decision
    return { ...ask, explanation: { kind: 'sandbox', detail: `running outside the sandbox (${sandbox.reason}); ${describeExplanation(decision.explanation)}` } }
  }
  if (decision.behavior !== 'allow') return decision
  if (call.mode === 'bypassPermissions') return decision
  if (decision.explanation.kind !== 'mode' && decision.explanation.kind !== 'hook') return decision
  let readOnly = false
  try {
    readOnly = call.tool.isReadOnly(call.input) === true
  } catch {
    readOnly = false
  }
  if (readOnly) return decision
  const explanation: Explanation = { kind: 'sandbox', detail: `running outside the sandbox (${sandbox.reason})` }
  if (call.mode === 'dontAsk') return { behavior: 'deny', message: `Bash would run outside the sandbox (${sandbox.reason}) and dontAsk mode allows no prompt.`, explanation }
  return { behavior: 'ask', explanation }
}

function previewContext(options: PermissionGateOptions, call: GateCall, signal: AbortSignal): ToolContext {
  return {
    cwd: call.cwd,
    projectRoot: options.projectRoot,
    projectDataDir: projectDataDir(options.sousHome, options.projectRoot),
    sessionId: options.sessionId,
    agentId: options.agent?.id ?? 'main',
    toolUseId: call.toolUseId,
    signal,
    progress: () => {},
    ...options.toolContext?.(),
  }
}

/** A diff of a file reached through a symlink also says where the write really lands. */
function withRealPath(preview: ToolPreview | DecisionPreview | undefined, decided: DecisionPreview | undefined): ToolPreview | DecisionPreview | undefined {
  if (preview?.kind !== 'diff' || decided?.kind !== 'path' || !decided.realPath) return preview
  return { ...preview, realPath: decided.realPath }
}

/** The tool's own preview (a diff, a parsed command); governance's when the tool has none or fails. */
async function safePreview(tool: AnyTool, input: unknown, context: ToolContext, fallback: DecisionPreview | undefined): Promise<ToolPreview | DecisionPreview | undefined> {
  try {
    return (await tool.preview?.(input, context)) ?? fallback
  } catch {
    return fallback
  }
}
