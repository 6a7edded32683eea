import type { LoadedRule } from '../settings/types'
import type { DecisionPreview, Explanation, PermissionDecision, PermissionMode } from '../types'
import { describeExplanation } from '../types'
import { bashAllow, bashDefault, bashPreview, bashRuleMatch } from './bash-decide'
import type { DecideContext, DecideInput } from './context'
import { EDIT_TOOLS, matchDomainRule, matchPathRule, matchSpecifierRule, toolRuleMatches } from './match'
import { isInsideRoots } from '../paths'
import { protectedReason } from './protected'
import { subjectOf } from './subject'

export type { DecideInput, HookVerdict } from './context'

/** Tools that change only the session's own bookkeeping: no prompt. */
export const NO_PROMPT_TOOLS = new Set(['TaskOutput', 'TaskStop', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TodoWrite', 'EnterPlanMode'])

/**
 * Decides whether a tool call may run: deny → plan mode → ask → review-only checks → allow → mode
 * defaults, first match wins. Every decision carries its explanation.
 * Contract: never throws for any input; unknown input shapes fall to ask.
 */
export async function decide(d: DecideInput): Promise<PermissionDecision> {
  const record = d.input !== null && typeof d.input === 'object' ? (d.input as Record<string, unknown>) : {}
  const home = d.settings.home
  const roots = [d.projectRoot, ...d.settings.additionalDirectories]
  const subject = await subjectOf(d.tool.name, record, { cwd: d.cwd, projectRoot: d.projectRoot, home, additionalDirectories: d.settings.additionalDirectories })
  const rules = { ...d.settings.rules, allow: [...d.settings.rules.allow, ...(d.sessionGrants?.rules() ?? [])] }
  const mode: PermissionMode = d.mode === 'bypassPermissions' && d.settings.disableBypassPermissions ? 'default' : d.mode
  const ctx: DecideContext = { ...d, mode, record, subject, roots, home, rules }
  const decision = decideInner(ctx)
  if (decision.behavior === 'ask' && mode === 'dontAsk') {
    return { behavior: 'deny', message: `Permission to use ${d.tool.name} was not granted in advance (dontAsk mode): ${describeExplanation(decision.explanation)}`, explanation: decision.explanation }
  }
  return decision
}

function decideInner(ctx: DecideContext): PermissionDecision {
  const name = ctx.tool.name
  if (ctx.hook?.decision === 'deny') {
    const explanation: Explanation = { kind: 'hook', source: ctx.hook.source, detail: ctx.hook.reason ?? 'blocked by a PreToolUse hook' }
    return { behavior: 'deny', message: ctx.hook.reason ?? 'Blocked by a PreToolUse hook.', explanation }
  }
  const denied = findRule(ctx, 'deny')
  if (denied) return { behavior: 'deny', message: `Permission to use ${name} has been denied by ${denied.rule.text}.`, explanation: denied }
  if (ctx.mode === 'plan' && !isReadOnly(ctx)) {
    const explanation: Explanation = { kind: 'mode', mode: 'plan', detail: `${name} is not read-only` }
    return { behavior: 'deny', message: `Plan mode is active: only read-only tools may run, so ${name} was not run. Finish the plan and ask the user to leave plan mode.`, explanation }
  }
  const preview = previewOf(ctx)
  const asked = findRule(ctx, 'ask')
  if (asked) return { behavior: 'ask', explanation: asked, preview }
  if (ctx.hook?.decision === 'ask') return { behavior: 'ask', explanation: { kind: 'hook', source: ctx.hook.source, detail: ctx.hook.reason ?? 'a PreToolUse hook asked' }, preview }
  const review = mustReview(ctx)
  if (review) return { behavior: 'ask', explanation: review, preview }
  const allowed = allowOrDefault(ctx)
  if (allowed.behavior === 'allow' && ctx.settings.broken.length > 0) {
    const b = ctx.settings.broken[0] as { file: string; message: string }
    return { behavior: 'ask', explanation: { kind: 'settings-error', file: b.file, detail: `could not be parsed, so nothing is allowed without asking (${b.message})` }, preview }
  }
  if (allowed.behavior === 'ask') return { ...allowed, preview }
  return allowed
}

type RuleExplanation = Extract<Explanation, { kind: 'rule' }>

function explain(rule: LoadedRule, detail?: string): RuleExplanation {
  return { kind: 'rule', rule: rule.origin, ...(detail ? { detail } : {}) }
}

/** The first deny or ask rule that covers any part of the call. */
function findRule(ctx: DecideContext, behavior: 'deny' | 'ask'): RuleExplanation | undefined {
  const rules = ctx.rules[behavior]
  const name = ctx.tool.name
  const s = ctx.subject
  if (s.kind === 'bash') return bashRuleMatch(ctx, rules, behavior)
  const tool = rules.find((r) => toolRuleMatches(r, name, behavior))
  if (tool) return explain(tool)
  if (s.kind === 'read' || s.kind === 'edit') {
    const r = matchPathRule(rules, s.path, s.kind, behavior, ctx.projectRoot, ctx.home)
    if (r) return explain(r, s.path)
  }
  if (s.kind === 'fetch' && s.host) {
    const r = matchDomainRule(rules, s.host)
    if (r) return explain(r, s.host)
  }
  const spec = matchSpecifierRule(rules, name, ctx.record)
  return spec ? explain(spec) : undefined
}

function isReadOnly(ctx: DecideContext): boolean {
  const s = ctx.subject
  if (s.kind === 'bash') return s.analysis.readOnly
  if (s.kind === 'read') return true
  if (s.kind === 'edit') return false
  try {
    return ctx.tool.isReadOnly(ctx.input)
  } catch {
    return false
  }
}

/** Checks that ask in every mode, whatever allow rules or hooks say. */
function mustReview(ctx: DecideContext): Explanation | undefined {
  const s = ctx.subject
  if (s.kind === 'bash') {
    if (s.analysis.problems.length > 0) return { kind: 'bash-analysis', problems: s.analysis.problems }
    if (s.analysis.critical.length > 0) return { kind: 'bash-analysis', problems: s.analysis.critical }
    if (s.disableSandbox) return { kind: 'sandbox', detail: 'the command asks to run outside the sandbox (dangerouslyDisableSandbox)' }
    for (const p of s.analysis.paths) {
      if (!p.write || p.exempt || !p.resolved) continue
      const why = protectedReason(p.resolved, ctx.projectRoot, ctx.settings.settingsFiles)
      if (why) return { kind: 'protected-path', path: p.resolved, detail: `writes to a ${why}` }
    }
    return undefined
  }
  if (s.kind === 'edit') {
    const why = protectedReason(s.path, ctx.projectRoot, ctx.settings.settingsFiles)
    if (why) return { kind: 'protected-path', path: s.path, detail: `edits a ${why}` }
  }
  if (EDIT_TOOLS.has(ctx.tool.name) && s.kind !== 'edit') return { kind: 'default', detail: `${ctx.tool.name} was called without a file path` }
  return undefined
}

function allowOrDefault(ctx: DecideContext): PermissionDecision {
  const name = ctx.tool.name
  const s = ctx.subject
  if (ctx.mode === 'bypassPermissions') return { behavior: 'allow', explanation: { kind: 'mode', mode: 'bypassPermissions', detail: 'every call is allowed' } }
  const rule = allowRule(ctx)
  if (rule) return { behavior: 'allow', explanation: rule }
  if (ctx.hook?.decision === 'allow') return { behavior: 'allow', explanation: { kind: 'hook', source: ctx.hook.source, detail: ctx.hook.reason ?? 'allowed by a PreToolUse hook' } }
  if (s.kind === 'bash') return bashDefault(ctx, s)
  if (s.kind === 'read') {
    if (isInsideRoots(s.path, ctx.roots)) return { behavior: 'allow', explanation: { kind: 'default', detail: 'reads inside the project are allowed' } }
    return { behavior: 'ask', explanation: { kind: 'outside-project', path: s.path, detail: 'reads outside the project' } }
  }
  if (s.kind === 'edit') {
    if (!isInsideRoots(s.path, ctx.roots)) return { behavior: 'ask', explanation: { kind: 'outside-project', path: s.path, detail: 'edits outside the project' } }
    if (ctx.mode === 'acceptEdits') return { behavior: 'allow', explanation: { kind: 'mode', mode: 'acceptEdits', detail: 'edits inside the project are accepted' } }
    return { behavior: 'ask', explanation: { kind: 'default', detail: `${name} changes a file` } }
  }
  if (s.kind === 'fetch') return { behavior: 'ask', explanation: { kind: 'default', detail: `fetching ${s.host ?? s.url} needs approval` } }
  if (name.startsWith('mcp__')) return { behavior: 'ask', explanation: { kind: 'default', detail: `MCP tool ${name} needs approval` } }
  if (NO_PROMPT_TOOLS.has(name) || isReadOnly(ctx)) return { behavior: 'allow', explanation: { kind: 'default', detail: `${name} is read-only` } }
  return { behavior: 'ask', explanation: { kind: 'default', detail: `${name} needs approval` } }
}

/** An allow rule (or session grant) covering the whole call. */
function allowRule(ctx: DecideContext): Explanation | undefined {
  const rules = ctx.rules.allow
  const s = ctx.subject
  if (s.kind === 'bash') return bashAllow(ctx, rules)
  const tool = rules.find((r) => toolRuleMatches(r, ctx.tool.name, 'allow'))
  if (tool) return explain(tool)
  if (s.kind === 'read' || s.kind === 'edit') {
    const r = matchPathRule(rules, s.path, s.kind, 'allow', ctx.projectRoot, ctx.home)
    return r ? explain(r, s.path) : undefined
  }
  if (s.kind === 'fetch') {
    const r = s.host ? matchDomainRule(rules, s.host) : undefined
    return r ? explain(r, s.host) : undefined
  }
  const spec = matchSpecifierRule(rules, ctx.tool.name, ctx.record)
  return spec ? explain(spec) : undefined
}

function previewOf(ctx: DecideContext): DecisionPreview | undefined {
  const s = ctx.subject
  if (s.kind === 'bash') return bashPreview(s)
  if (s.kind === 'read' || s.kind === 'edit') return { kind: 'path', path: s.path, operation: s.kind }
  if (s.kind === 'fetch') return { kind: 'url', url: s.url, domain: s.host ?? '' }
  return undefined
}
