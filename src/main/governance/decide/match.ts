import { bashPatternMatches } from '../rules/bash-pattern'
import { domainMatches } from '../rules/domain'
import { isAllowableToolGlob, toolNameMatches } from '../rules/parse'
import { compilePathPattern, pathPatternMatches } from '../rules/path-pattern'
import { denyCandidates, SAFE_ENV_VARS, stripSafeWrappers } from '../bash/commands'
import type { BashCommand } from '../bash/types'
import type { LoadedRule } from '../settings/types'
import type { RuleBehavior } from '../types'
import { realLocation } from '../paths'

/** Tool families that share path rules. */
export const READ_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'])
export const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

/** True when a bare `Tool` rule (or tool-name glob) covers this tool. */
export function toolRuleMatches(rule: LoadedRule, toolName: string, behavior: RuleBehavior): boolean {
  if (rule.parsed.kind !== 'tool') return false
  const pattern = rule.parsed.tool
  if (behavior === 'allow' && !isAllowableToolGlob(pattern)) return false
  if (toolNameMatches(pattern, toolName)) return true
  // `Read` covers the read family, `Edit` every file-editing tool.
  if (pattern === 'Read' && READ_TOOLS.has(toolName)) return true
  if (pattern === 'Edit' && EDIT_TOOLS.has(toolName)) return true
  return false
}

/** Shell-quotes a word only when needed, so rule text and command text compare the same way. */
export function quoteWord(w: string): string {
  if (w !== '' && /^[A-Za-z0-9_@%+=:,./~^-]+$/.test(w)) return w
  return `'${w.replace(/'/g, `'\\''`)}'`
}

/** Text forms of a command that deny/ask rules are tried against (wrappers peeled, quoted and plain). */
export function denyTexts(c: BashCommand): string[] {
  const out = new Set<string>()
  for (const form of denyCandidates(c.argv)) {
    out.add(form.map(quoteWord).join(' '))
    out.add(form.join(' '))
  }
  return [...out]
}

/**
 * The text an allow rule must match, or undefined when no allow rule may cover the command
 * (exec wrappers, `find -exec/-delete`, assignments of variables that change what runs).
 */
export function allowText(c: BashCommand): string | undefined {
  if (c.assignments.some((a) => !a.literal || !SAFE_ENV_VARS.has(a.name))) return undefined
  const { argv, execWrapper } = stripSafeWrappers(c.argv)
  if (execWrapper) return undefined
  if (argv[0] === 'find' && argv.some((a) => ['-exec', '-execdir', '-ok', '-okdir', '-delete'].includes(a))) return undefined
  return argv.map(quoteWord).join(' ')
}

/** First bash rule of the list matching one command. */
export function matchBashRule(rules: LoadedRule[], c: BashCommand, behavior: RuleBehavior): LoadedRule | undefined {
  const texts = behavior === 'allow' ? [allowText(c)].filter((t): t is string => t !== undefined) : denyTexts(c)
  for (const rule of rules) {
    if (toolRuleMatches(rule, 'Bash', behavior)) return rule
    if (rule.parsed.kind !== 'bash') continue
    const pattern = rule.parsed.pattern
    if (texts.some((t) => bashPatternMatches(pattern, t))) return rule
  }
  return undefined
}

/**
 * First path rule matching `abs` for an operation. Read rules cover reads; Edit rules cover edits;
 * a Read deny/ask also covers edits. Symlinks: allow needs both the link and its target to match,
 * deny/ask match if either does.
 */
export function matchPathRule(rules: LoadedRule[], abs: string, op: 'read' | 'edit', behavior: RuleBehavior, projectRoot: string, home: string): LoadedRule | undefined {
  const real = realLocation(abs)
  for (const rule of rules) {
    if (rule.parsed.kind !== 'path') continue
    const tool = rule.parsed.tool
    const applies = tool === (op === 'read' ? 'Read' : 'Edit') || (op === 'edit' && tool === 'Read' && behavior !== 'allow')
    if (!applies) continue
    const compiled = compilePathPattern(rule.parsed.pattern, { sourceRoot: rule.sourceRoot, cwd: projectRoot, home }, behavior === 'allow')
    const link = pathPatternMatches(compiled, abs)
    const target = real === abs ? link : pathPatternMatches(compiled, real)
    if (behavior === 'allow' ? link && target : link || target) return rule
  }
  return undefined
}

/** First WebFetch domain rule matching the host. */
export function matchDomainRule(rules: LoadedRule[], host: string): LoadedRule | undefined {
  return rules.find((r) => r.parsed.kind === 'domain' && domainMatches(r.parsed.domain, host))
}

/** First `Agent(type)` or `Tool(param:value)` rule matching the input. */
export function matchSpecifierRule(rules: LoadedRule[], toolName: string, input: Record<string, unknown>): LoadedRule | undefined {
  return rules.find((r) => {
    const p = r.parsed
    if (p.kind === 'agent') return (toolName === 'Agent' || toolName === 'Task') && input.subagent_type === p.agentType
    if (p.kind === 'param') return toolNameMatches(p.tool, toolName) && String(input[p.param] ?? '') === p.value
    return false
  })
}
