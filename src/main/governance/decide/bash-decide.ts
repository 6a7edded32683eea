// Only ever given an analysis, so the analyzer is loaded (analyzer.ts).
import { bashAnalyzer } from '../bash/analyzer'
import type { BashAnalysis, BashPath } from '../bash/types'
import { isInsideRoots, type Place } from '../paths/place'
import type { LoadedRule } from '../settings/types'
import type { DecisionPreview, Explanation, PermissionDecision, RuleBehavior } from '../types'
import type { DecideContext } from './context'
import { matchBashRule, matchPathRule, matchPathRuleBelow, toolRuleMatches } from './match'

type RuleExplanation = Extract<Explanation, { kind: 'rule' }>
type BashSubject = { kind: 'bash'; command: string; analysis: BashAnalysis; disableSandbox: boolean }

/** The place a path fact names (its written and real spellings). */
function placeOf(path: BashPath): Place {
  return { path: path.resolved, real: path.real || undefined }
}

/** A deny/ask rule covering any subcommand (wrappers peeled) or any file the command touches. */
export function bashRuleMatch(ctx: DecideContext, rules: LoadedRule[], behavior: RuleBehavior): RuleExplanation | undefined {
  const subject = ctx.subject as BashSubject
  const whole = rules.find((rule) => toolRuleMatches(rule, 'Bash', behavior))
  if (whole) return { kind: 'rule', rule: whole.origin }
  for (const command of subject.analysis.commands) {
    if (command.argv.length === 0) continue
    const rule = matchBashRule(rules, command, behavior)
    if (rule) return { kind: 'rule', rule: rule.origin, detail: command.text }
  }
  for (const path of subject.analysis.paths) {
    if (!path.resolved || path.exempt) continue
    const rule = matchPathRule(rules, placeOf(path), path.write ? 'edit' : 'read', behavior, ctx.projectRoot, ctx.home)
    if (rule) return { kind: 'rule', rule: rule.origin, detail: `${path.write ? 'writes' : 'reads'} ${describe(path)}` }
  }
  return undefined
}

/**
 * Deny and ask rules seen through searches and globs: a glob that matches a denied file now, or
 * a folder searched recursively (grep -r, rg, find, `git grep`) that may hold one, asks. The
 * search would read the file the rule refuses; the user decides, and no allow rule silences it.
 */
export function bashSearchReview(ctx: DecideContext, subject: BashSubject): Explanation | undefined {
  for (const behavior of ['deny', 'ask'] as const) {
    const rules = ctx.rules[behavior]
    if (!rules.some((rule) => rule.parsed.kind === 'path')) continue
    for (const path of subject.analysis.paths) {
      if (path.exempt) continue
      for (const match of path.matches ?? []) {
        const rule = matchPathRule(rules, match, path.write ? 'edit' : 'read', behavior, ctx.projectRoot, ctx.home)
        if (rule) return { kind: 'reaches-denied', rule: rule.origin, detail: `the glob ${path.path} matches ${match.path}` }
      }
      if (path.recursive && path.resolved) {
        const rule = matchPathRuleBelow(rules, placeOf(path), behavior, ctx.projectRoot, ctx.home)
        if (rule) return { kind: 'reaches-denied', rule: rule.origin, detail: `searches ${describe(path)}, which may hold files the rule covers` }
      }
    }
    // A link the reader follows is read where it leads, and below it.
    for (const link of ctx.links?.places ?? []) {
      const rule = matchPathRule(rules, link, 'read', behavior, ctx.projectRoot, ctx.home) ?? (link.real ? matchPathRuleBelow(rules, { path: link.real, real: link.real }, behavior, ctx.projectRoot, ctx.home) : undefined)
      if (rule) return { kind: 'reaches-denied', rule: rule.origin, detail: `follows the symlink ${link.path} to ${link.real}` }
    }
  }
  return undefined
}

/** True when command `i` is read-only by its options and every file it names stays inside. */
function readOnlyInside(analysis: BashAnalysis, i: number): boolean {
  const command = analysis.commands[i]
  if (!command || command.dynamic || !analysis.verdicts[i]?.readOnly) return false
  return analysis.paths.every((path) => path.command !== i || (!path.write && (path.inside || path.exempt)) || (path.write && path.exempt))
}

/**
 * Allow rules for a command: every subcommand must be matched by an allow rule (or be a built-in
 * read-only command staying inside), and every file outside the project must be covered by a
 * Read or Edit allow rule.
 */
export function bashAllow(ctx: DecideContext, rules: LoadedRule[]): RuleExplanation | undefined {
  const analysis = (ctx.subject as BashSubject).analysis
  const real = analysis.commands.map((command, i) => ({ command, i })).filter(({ command }) => command.argv.length > 0)
  if (real.length === 0) return undefined
  const matched: LoadedRule[] = []
  for (const { command, i } of real) {
    const rule = matchBashRule(rules, command, 'allow', analysis.verdicts[i])
    if (rule) matched.push(rule)
    else if (!readOnlyInside(analysis, i)) return undefined
  }
  const first = matched[0]
  if (!first) return undefined
  // Files outside the project need their own Read/Edit allow rule, whatever the command rule says.
  for (const path of analysis.paths) {
    if (path.exempt || path.inside) continue
    if (!path.resolved || !matchPathRule(rules, placeOf(path), path.write ? 'edit' : 'read', 'allow', ctx.projectRoot, ctx.home)) return undefined
  }
  // And so do the places the links it follows lead to.
  for (const link of linksOutside(ctx)) if (!link.real || !matchPathRule(rules, { path: link.real, real: link.real }, 'read', 'allow', ctx.projectRoot, ctx.home)) return undefined
  const detail = matched.length > 1 ? `every subcommand matched: ${[...new Set(matched.map((rule) => rule.origin.text))].join(', ')}` : undefined
  return { kind: 'rule', rule: first.origin, ...(detail ? { detail } : {}) }
}

/** Built-in behaviour without a rule: read-only inside the project runs; acceptEdits adds mkdir/touch/mv/cp inside. */
export function bashDefault(ctx: DecideContext, subject: BashSubject): PermissionDecision {
  const analysis = subject.analysis
  const real = analysis.commands.map((command, i) => ({ command, i })).filter(({ command }) => command.argv.length > 0)
  const outside = analysis.paths.find((path) => !path.exempt && !path.inside)
  const leaving = linksOutside(ctx)[0]
  if (leaving) return { behavior: 'ask', explanation: { kind: 'outside-project', path: `${leaving.path} → ${leaving.real}`, detail: 'follows a symlink that leads outside the project' } }
  if (real.length > 0 && analysis.readOnly && real.every(({ i }) => readOnlyInside(analysis, i)) && !outside)
    return { behavior: 'allow', explanation: { kind: 'default', detail: 'read-only command inside the project' } }
  if (ctx.mode === 'acceptEdits' && real.length > 0 && !outside) {
    const ok = real.every(({ command, i }) => {
      if (readOnlyInside(analysis, i)) return true
      const { argv, execWrapper } = bashAnalyzer().stripSafeWrappers(command.argv)
      return !execWrapper && !command.dynamic && command.assignments.length === 0 && !analysis.verdicts[i]?.runsProgram && bashAnalyzer().ACCEPT_EDITS_COMMANDS.has(argv[0] ?? '')
    })
    if (ok && analysis.paths.every((path) => path.exempt || (path.inside && path.resolved !== '')))
      return { behavior: 'allow', explanation: { kind: 'mode', mode: 'acceptEdits', detail: 'file operations inside the project are accepted' } }
  }
  if (outside) {
    const where = outside.resolved ? describe(outside) : outside.path
    return { behavior: 'ask', explanation: { kind: 'outside-project', path: where, detail: outside.write ? 'writes outside the project (or where, cannot be known)' : 'reads outside the project (or where, cannot be known)' } }
  }
  const why = analysis.verdicts.find((verdict) => !verdict.readOnly)?.notReadOnly
  return { behavior: 'ask', explanation: { kind: 'default', detail: why ? `this command needs approval: ${why}` : 'this command needs approval' } }
}

/** The links a link-following reader would take out of the project (and its extra directories). */
function linksOutside(ctx: DecideContext): Place[] {
  return (ctx.links?.places ?? []).filter((link) => !isInsideRoots(link, ctx.roots))
}

/** What the approval card shows for a command. */
export function bashPreview(subject: BashSubject): DecisionPreview {
  return { kind: 'command', command: subject.command, subcommands: subject.analysis.commands.filter((command) => command.argv.length > 0).map((command) => command.text), problems: subject.analysis.problems }
}

/** A path fact for people: as written, and where a symlink really takes it. */
function describe(path: BashPath): string {
  return path.real && path.real !== path.resolved ? `${path.resolved} → ${path.real}` : path.resolved
}
