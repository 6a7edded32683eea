import type { LoadedRule } from '../settings/types'
import type { ToolPermissionResult } from '../../tools/types'
import type { DecisionPreview, Explanation, PermissionDecision, PermissionMode } from '../types'
import { describeExplanation, describeOrigin } from '../types'
import { bashAllow, bashDefault, bashPreview, bashRuleMatch, bashSearchReview } from './bash-decide'
import { gitRepositoryConcern } from './git-repository'
import { linkReach } from './link-reach'
import type { DecideContext, DecideInput } from './context'
import { EDIT_TOOLS, matchDomainRule, matchPathRule, matchSpecifierRule, toolRuleMatches } from './match'
import { isInsideRoots, isUnder, spellings, type Place } from '../paths/place'
import { protectedReason } from './protected'
import { defaultDenyRead } from '../sandbox/credential-reads'
import { subjectOf } from './subject'

export type { DecideInput, HookVerdict } from './context'


/**
 * Decides whether a tool call may run: deny → plan mode → the tool's own deny → ask → review-only
 * checks → allow (rules, hooks, then the tool's own allow or ask) → mode defaults, first match wins. Every decision carries its explanation.
 * Contract: never throws for any input; unknown input shapes fall to ask.
 */
export async function decide(call: DecideInput): Promise<PermissionDecision> {
  const record = call.input !== null && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {}
  const home = call.settings.home
  const roots = [call.projectRoot, ...call.settings.additionalDirectories]
  const subject = await subjectOf(call.tool.name, record, { cwd: call.cwd, projectRoot: call.projectRoot, home, additionalDirectories: call.settings.additionalDirectories })
  const autoAsk = call.mode === 'auto' ? (call.autoAsk ?? []) : []
  const rules = { ...call.settings.rules, allow: [...call.settings.rules.allow, ...(call.sessionGrants?.rules() ?? [])], ask: [...call.settings.rules.ask, ...autoAsk] }
  const mode = effectiveMode(call.mode, call.settings.disableBypassPermissions)
  const gitConcern = subject.kind === 'bash' ? await gitRepositoryConcern(subject.analysis, call.cwd) : undefined
  const links = subject.kind === 'bash' ? linkReach(subject.analysis, roots) : undefined
  const own = ownCheck(call, mode)
  const ctx: DecideContext = { ...call, mode, record, subject, roots, home, rules, own, ...(gitConcern ? { gitConcern } : {}), ...(links ? { links } : {}) }
  const decision = decideInner(ctx)
  if (decision.behavior === 'ask' && mode === 'dontAsk') {
    return { behavior: 'deny', message: `Permission to use ${call.tool.name} was not granted in advance (dontAsk mode): ${describeExplanation(decision.explanation)}`, explanation: decision.explanation }
  }
  return decision
}

/**
 * The tool's own permission check. A check that throws asks (fail closed); a tool without one, or
 * one that answers `passthrough`, leaves the call to the general rules.
 */
function ownCheck(call: DecideInput, mode: PermissionMode): ToolPermissionResult {
  if (!call.tool.checkPermissions) return { behavior: 'passthrough' }
  try {
    return call.tool.checkPermissions(call.input, { cwd: call.cwd, projectRoot: call.projectRoot, mode })
  } catch (error) {
    return { behavior: 'ask', reason: `its permission check failed (${error instanceof Error ? error.message : String(error)})` }
  }
}

/**
 * The mode the rules are read in. A disabled bypass is manual. `auto` is manual too: the rules
 * decide as in manual, and only the mode's default ask (`classifiable`) goes to the classifier.
 */
function effectiveMode(mode: PermissionMode, bypassDisabled: boolean): PermissionMode {
  if (mode === 'auto') return 'default'
  return mode === 'bypassPermissions' && bypassDisabled ? 'default' : mode
}

function decideInner(ctx: DecideContext): PermissionDecision {
  const name = ctx.tool.name
  if (ctx.hook?.decision === 'deny') {
    const explanation: Explanation = { kind: 'hook', source: ctx.hook.source, detail: ctx.hook.reason ?? 'blocked by a PreToolUse hook' }
    return { behavior: 'deny', message: ctx.hook.reason ?? 'Blocked by a PreToolUse hook.', explanation }
  }
  const denied = findRule(ctx, 'deny')
  if (denied) return { behavior: 'deny', message: `Permission to use ${name} has been denied by the rule ${denied.rule.text} from ${describeOrigin(denied.rule)}.`, explanation: denied }
  if (ctx.mode === 'plan' && !isReadOnly(ctx) && !isBookkeeping(ctx)) {
    const explanation: Explanation = { kind: 'mode', mode: 'plan', detail: `${name} is not read-only` }
    return { behavior: 'deny', message: `Plan mode is active: only read-only tools may run, so ${name} was not run. Finish the plan and ask the user to leave plan mode.`, explanation }
  }
  // The tool's own refusal is final, whatever allow rules or the mode say (Claude Code: a deny from checkPermissions).
  if (ctx.own.behavior === 'deny') return { behavior: 'deny', message: ctx.own.message, explanation: { kind: 'tool', tool: name, detail: ctx.own.message } }
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
  // Only the mode's own default ask is left for auto mode's classifier: every ask above is a floor,
  // and so is a file tool on a credential store (the sandbox hides them from commands; a model
  // following planted instructions must not be one small model's yes away from a key).
  // A tool's own ask is a floor too: the tool knows something about the call the classifier does not.
  if (allowed.behavior === 'ask') return { ...allowed, preview, ...(ctx.settings.broken.length === 0 && !touchesCredentials(ctx) && allowed.explanation.kind !== 'tool' && { classifiable: true as const }) }
  return allowed
}

/** Whether a file tool's path (as written or where it really leads) is in a credential store the sandbox hides. */
function touchesCredentials(ctx: DecideContext): boolean {
  const subject = ctx.subject
  if (subject.kind !== 'read' && subject.kind !== 'edit') return false
  const stores = defaultDenyRead(ctx.home)
  return spellings(subject.place).some((path) => stores.some((store) => isUnder(path, store)))
}

type RuleExplanation = Extract<Explanation, { kind: 'rule' }>

function explain(rule: LoadedRule, detail?: string): RuleExplanation {
  return { kind: 'rule', rule: rule.origin, ...(detail ? { detail } : {}) }
}

/** The first deny or ask rule that covers any part of the call. */
function findRule(ctx: DecideContext, behavior: 'deny' | 'ask'): RuleExplanation | undefined {
  const rules = ctx.rules[behavior]
  const name = ctx.tool.name
  const subject = ctx.subject
  if (subject.kind === 'bash') return bashRuleMatch(ctx, rules, behavior)
  const tool = rules.find((rule) => toolRuleMatches(rule, name, behavior))
  if (tool) return explain(tool)
  if (subject.kind === 'read' || subject.kind === 'edit') {
    const rule = matchPathRule(rules, subject.place, subject.kind, behavior, ctx.projectRoot, ctx.home)
    if (rule) return explain(rule, describePlace(subject.place))
  }
  if (subject.kind === 'fetch' && subject.host) {
    const rule = matchDomainRule(rules, subject.host)
    if (rule) return explain(rule, subject.host)
  }
  const spec = matchSpecifierRule(rules, name, ctx.record)
  return spec ? explain(spec) : undefined
}

function isReadOnly(ctx: DecideContext): boolean {
  const subject = ctx.subject
  if (subject.kind === 'bash') return subject.analysis.readOnly
  if (subject.kind === 'read') return true
  if (subject.kind === 'edit') return false
  try {
    return ctx.tool.isReadOnly(ctx.input)
  } catch {
    return false
  }
}

/** A tool that changes only Sous's own records (tasks, plan mode) passes plan mode and needs no prompt. */
function isBookkeeping(ctx: DecideContext): boolean {
  if (ctx.subject.kind !== 'other') return false
  try {
    return ctx.tool.isBookkeeping?.(ctx.input) === true
  } catch {
    return false
  }
}

/** Checks that ask in every mode, whatever allow rules or hooks say. */
function mustReview(ctx: DecideContext): Explanation | undefined {
  const subject = ctx.subject
  if (subject.kind === 'bash') {
    if (subject.analysis.problems.length > 0) return { kind: 'bash-analysis', problems: subject.analysis.problems }
    if (subject.analysis.critical.length > 0) return { kind: 'bash-analysis', problems: subject.analysis.critical }
    if (subject.disableSandbox) return { kind: 'sandbox', detail: 'the command asks to run outside the sandbox (dangerouslyDisableSandbox)' }
    // Read-only git in a repository whose own configuration could run programs: no rule or mode covers that.
    if (ctx.gitConcern) return { kind: 'bash-analysis', problems: [ctx.gitConcern] }
    if (ctx.links?.unsure) return { kind: 'bash-analysis', problems: [ctx.links.unsure] }
    for (const path of subject.analysis.paths) {
      if (!path.write || path.exempt || !path.resolved) continue
      const why = protectedReason({ path: path.resolved, real: path.real || undefined }, ctx.projectRoot, ctx.settings.settingsFiles, ctx.settings.hookScripts)
      if (why) return { kind: 'protected-path', path: path.real || path.resolved, detail: `writes to a ${why}` }
    }
    return bashSearchReview(ctx, subject)
  }
  if (subject.kind === 'edit') {
    const why = protectedReason(subject.place, ctx.projectRoot, ctx.settings.settingsFiles, ctx.settings.hookScripts)
    if (why) return { kind: 'protected-path', path: subject.place.real ?? subject.place.path, detail: `edits a ${why}` }
  }
  if (EDIT_TOOLS.has(ctx.tool.name) && subject.kind !== 'edit') return { kind: 'default', detail: `${ctx.tool.name} was called without a file path` }
  return undefined
}

function allowOrDefault(ctx: DecideContext): PermissionDecision {
  const name = ctx.tool.name
  const subject = ctx.subject
  if (ctx.mode === 'bypassPermissions') return { behavior: 'allow', explanation: { kind: 'mode', mode: 'bypassPermissions', detail: 'every call is allowed' } }
  const rule = allowRule(ctx)
  if (rule) return { behavior: 'allow', explanation: rule }
  if (ctx.hook?.decision === 'allow') return { behavior: 'allow', explanation: { kind: 'hook', source: ctx.hook.source, detail: ctx.hook.reason ?? 'allowed by a PreToolUse hook' } }
  // The tool's own answer comes after the rules that outrank it; `passthrough` falls to the defaults below.
  if (ctx.own.behavior === 'allow' || ctx.own.behavior === 'ask') return { behavior: ctx.own.behavior, explanation: { kind: 'tool', tool: name, detail: ctx.own.reason } }
  if (subject.kind === 'bash') return bashDefault(ctx, subject)
  if (subject.kind === 'read') {
    if (isInsideRoots(subject.place, ctx.roots)) return { behavior: 'allow', explanation: { kind: 'default', detail: 'reads inside the project are allowed' } }
    if (ctx.readableRoots && isInsideRoots(subject.place, ctx.readableRoots)) return { behavior: 'allow', explanation: { kind: 'default', detail: "the session's own saved tool results are readable" } }
    return { behavior: 'ask', explanation: { kind: 'outside-project', path: describePlace(subject.place), detail: 'reads outside the project' } }
  }
  if (subject.kind === 'edit') {
    if (!isInsideRoots(subject.place, ctx.roots)) return { behavior: 'ask', explanation: { kind: 'outside-project', path: describePlace(subject.place), detail: 'edits outside the project' } }
    if (ctx.mode === 'acceptEdits') return { behavior: 'allow', explanation: { kind: 'mode', mode: 'acceptEdits', detail: 'edits inside the project are accepted' } }
    return { behavior: 'ask', explanation: { kind: 'default', detail: `${name} changes a file` } }
  }
  if (subject.kind === 'fetch') return { behavior: 'ask', explanation: { kind: 'default', detail: `fetching ${subject.host ?? subject.url} needs approval` } }
  if (name.startsWith('mcp__')) return { behavior: 'ask', explanation: { kind: 'default', detail: `MCP tool ${name} needs approval` } }
  // Read-only (plan mode keeps it), yet it sends the query out: Claude Code asks before a search no rule allows.
  if (name === 'WebSearch') return { behavior: 'ask', explanation: { kind: 'default', detail: 'a web search sends the query to the search provider' } }
  if (isReadOnly(ctx)) return { behavior: 'allow', explanation: { kind: 'default', detail: `${name} is read-only` } }
  if (isBookkeeping(ctx)) return { behavior: 'allow', explanation: { kind: 'default', detail: `${name} changes only Sous's own records` } }
  return { behavior: 'ask', explanation: { kind: 'default', detail: `${name} needs approval` } }
}

/** An allow rule (or session grant) covering the whole call. */
function allowRule(ctx: DecideContext): Explanation | undefined {
  const rules = ctx.rules.allow
  const subject = ctx.subject
  if (subject.kind === 'bash') return bashAllow(ctx, rules)
  const tool = rules.find((rule) => toolRuleMatches(rule, ctx.tool.name, 'allow'))
  if (tool) return explain(tool)
  if (subject.kind === 'read' || subject.kind === 'edit') {
    const rule = matchPathRule(rules, subject.place, subject.kind, 'allow', ctx.projectRoot, ctx.home)
    return rule ? explain(rule, describePlace(subject.place)) : undefined
  }
  if (subject.kind === 'fetch') {
    const rule = subject.host ? matchDomainRule(rules, subject.host) : undefined
    return rule ? explain(rule, subject.host) : undefined
  }
  const spec = matchSpecifierRule(rules, ctx.tool.name, ctx.record)
  return spec ? explain(spec) : undefined
}

function previewOf(ctx: DecideContext): DecisionPreview | undefined {
  const subject = ctx.subject
  if (subject.kind === 'bash') return bashPreview(subject)
  if (subject.kind === 'read' || subject.kind === 'edit') {
    const leadsElsewhere = subject.place.real !== undefined && subject.place.real !== subject.place.path
    return { kind: 'path', path: subject.place.path, operation: subject.kind, ...(leadsElsewhere ? { realPath: subject.place.real } : {}) }
  }
  if (subject.kind === 'fetch') return { kind: 'url', url: subject.url, domain: subject.host ?? '' }
  return undefined
}

/** A place for people: the path, and where it really leads when a symlink takes it elsewhere. */
function describePlace(place: Place): string {
  if (place.real === undefined) return `${place.path} (a symlink loop)`
  return place.real === place.path ? place.path : `${place.path} → ${place.real}`
}
