import { ACCEPT_EDITS_COMMANDS, isReadOnlyCommand, stripSafeWrappers } from '../bash/commands'
import type { BashAnalysis } from '../bash/types'
import type { LoadedRule } from '../settings/types'
import type { DecisionPreview, Explanation, PermissionDecision, RuleBehavior } from '../types'
import type { DecideContext } from './context'
import { matchBashRule, matchPathRule, toolRuleMatches } from './match'

type RuleExplanation = Extract<Explanation, { kind: 'rule' }>
type BashSubject = { kind: 'bash'; command: string; analysis: BashAnalysis; disableSandbox: boolean }

/** A deny/ask rule covering any subcommand (wrappers peeled) or any file the command touches. */
export function bashRuleMatch(ctx: DecideContext, rules: LoadedRule[], behavior: RuleBehavior): RuleExplanation | undefined {
  const s = ctx.subject as BashSubject
  const whole = rules.find((r) => toolRuleMatches(r, 'Bash', behavior))
  if (whole) return { kind: 'rule', rule: whole.origin }
  for (const c of s.analysis.commands) {
    if (c.argv.length === 0) continue
    const r = matchBashRule(rules, c, behavior)
    if (r) return { kind: 'rule', rule: r.origin, detail: c.text }
  }
  for (const p of s.analysis.paths) {
    if (!p.resolved || p.exempt) continue
    const r = matchPathRule(rules, p.resolved, p.write ? 'edit' : 'read', behavior, ctx.projectRoot, ctx.home)
    if (r) return { kind: 'rule', rule: r.origin, detail: `${p.write ? 'writes' : 'reads'} ${p.resolved}` }
  }
  return undefined
}

/** True when command `i` is in the built-in read-only set and every file it names stays inside. */
function readOnlyInside(a: BashAnalysis, i: number): boolean {
  const c = a.commands[i]
  if (!c || c.dynamic) return false
  const { argv, execWrapper } = stripSafeWrappers(c.argv)
  if (execWrapper || c.assignments.length > 0 || !isReadOnlyCommand(argv)) return false
  return a.paths.every((p) => p.command !== i || (!p.write && (p.inside || p.exempt)) || (p.write && p.exempt))
}

/**
 * Allow rules for a command: every subcommand must be matched by an allow rule (or be a built-in
 * read-only command staying inside), and every file outside the project must be covered by a
 * Read or Edit allow rule.
 */
export function bashAllow(ctx: DecideContext, rules: LoadedRule[]): RuleExplanation | undefined {
  const s = ctx.subject as BashSubject
  const a = s.analysis
  const real = a.commands.map((c, i) => ({ c, i })).filter(({ c }) => c.argv.length > 0)
  if (real.length === 0) return undefined
  const matched: LoadedRule[] = []
  for (const { c, i } of real) {
    const r = matchBashRule(rules, c, 'allow')
    if (r) matched.push(r)
    else if (!readOnlyInside(a, i)) return undefined
  }
  const first = matched[0]
  if (!first) return undefined
  // Files outside the project need their own Read/Edit allow rule, whatever the command rule says.
  for (const p of a.paths) {
    if (p.exempt || p.inside) continue
    if (!p.resolved || !matchPathRule(rules, p.resolved, p.write ? 'edit' : 'read', 'allow', ctx.projectRoot, ctx.home)) return undefined
  }
  const detail = matched.length > 1 ? `every subcommand matched: ${[...new Set(matched.map((r) => r.origin.text))].join(', ')}` : undefined
  return { kind: 'rule', rule: first.origin, ...(detail ? { detail } : {}) }
}

/** Built-in behaviour without a rule: read-only inside the project runs; acceptEdits adds mkdir/touch/mv/cp inside. */
export function bashDefault(ctx: DecideContext, s: BashSubject): PermissionDecision {
  const a = s.analysis
  const real = a.commands.map((c, i) => ({ c, i })).filter(({ c }) => c.argv.length > 0)
  const outside = a.paths.find((p) => !p.exempt && !p.inside)
  if (real.length > 0 && a.readOnly && real.every(({ i }) => readOnlyInside(a, i)) && !outside)
    return { behavior: 'allow', explanation: { kind: 'default', detail: 'read-only command inside the project' } }
  if (ctx.mode === 'acceptEdits' && real.length > 0 && !outside) {
    const ok = real.every(({ c, i }) => {
      if (readOnlyInside(a, i)) return true
      const { argv, execWrapper } = stripSafeWrappers(c.argv)
      return !execWrapper && !c.dynamic && c.assignments.length === 0 && ACCEPT_EDITS_COMMANDS.has(argv[0] ?? '')
    })
    if (ok && a.paths.every((p) => p.exempt || (p.inside && p.resolved !== '')))
      return { behavior: 'allow', explanation: { kind: 'mode', mode: 'acceptEdits', detail: 'file operations inside the project are accepted' } }
  }
  if (outside)
    return { behavior: 'ask', explanation: { kind: 'outside-project', path: outside.resolved || outside.path, detail: outside.write ? 'writes outside the project' : 'reads outside the project' } }
  return { behavior: 'ask', explanation: { kind: 'default', detail: 'this command needs approval' } }
}

/** What the approval card shows for a command. */
export function bashPreview(s: BashSubject): DecisionPreview {
  return { kind: 'command', command: s.command, subcommands: s.analysis.commands.filter((c) => c.argv.length > 0).map((c) => c.text), problems: s.analysis.problems }
}
