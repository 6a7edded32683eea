import { statSync } from 'node:fs'
import { join } from 'node:path'
import { bashPatternMatches } from '../rules/bash-pattern'
import { domainMatches } from '../rules/domain'
import { isAllowableToolGlob, skillMatches, toolNameMatches } from '../rules/parse'
import { compilePathPattern, pathPatternMatches, pathPatternMayMatchBelow } from '../rules/path-pattern'
// Only ever given an analysis, so the analyzer is loaded (analyzer.ts).
import { bashAnalyzer } from '../bash/analyzer'
import type { BashCommand, CommandVerdict } from '../bash/types'
import type { Place } from '../paths/place'
import type { LoadedRule } from '../settings/types'
import type { RuleBehavior } from '../types'

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
export function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./~^-]+$/.test(word)) return word
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** Text forms of a command that deny/ask rules are tried against (wrappers peeled, quoted and plain). */
export function denyTexts(command: BashCommand): string[] {
  const out = new Set<string>()
  for (const form of bashAnalyzer().denyCandidates(command.argv)) {
    out.add(form.map(quoteWord).join(' '))
    out.add(form.join(' '))
  }
  return [...out]
}

/**
 * The text an allow rule must match, or undefined when no allow rule may cover the command
 * (exec wrappers, an option that runs a program such as `find -exec`, `rg --pre` or `git grep -O`,
 * `find -delete`, assignments of variables that change what runs).
 */
export function allowText(command: BashCommand, verdict?: CommandVerdict): string | undefined {
  if (command.assignments.some((assignment) => !assignment.literal || !bashAnalyzer().SAFE_ENV_VARS.has(assignment.name))) return undefined
  if (verdict?.runsProgram) return undefined
  const { argv, execWrapper } = bashAnalyzer().stripSafeWrappers(command.argv)
  if (execWrapper) return undefined
  if (argv[0] === 'find' && argv.some((word) => ['-exec', '-execdir', '-ok', '-okdir', '-delete'].includes(word))) return undefined
  return argv.map(quoteWord).join(' ')
}

/**
 * The texts an allow rule is tried against: {@link allowText} and, for a plain command (no
 * wrapper peeled, no assignment, nothing known only at run time, one line), the command as
 * written — the form Claude Code's rules take, which compare the command text
 * (`Bash(git commit -m "a b")`). Empty when no allow rule may cover the command.
 */
export function allowTexts(command: BashCommand, verdict?: CommandVerdict): string[] {
  const text = allowText(command, verdict)
  if (text === undefined) return []
  const written = writtenText(command)
  return written !== undefined && written !== text ? [text, written] : [text]
}

/** A plain command's text as written, or undefined when it is not plain (see {@link allowTexts}). */
export function writtenText(command: BashCommand): string | undefined {
  const written = command.text.trim()
  const plain = command.assignments.length === 0 && !command.dynamic && command.redirects.length === 0 && bashAnalyzer().stripSafeWrappers(command.argv).argv.length === command.argv.length && !/[\r\n]/.test(written)
  return plain && written !== '' ? written : undefined
}

/** First bash rule of the list matching one command. */
export function matchBashRule(rules: LoadedRule[], command: BashCommand, behavior: RuleBehavior, verdict?: CommandVerdict): LoadedRule | undefined {
  const texts = behavior === 'allow' ? allowTexts(command, verdict) : denyTexts(command)
  for (const rule of rules) {
    if (toolRuleMatches(rule, 'Bash', behavior)) return rule
    if (rule.parsed.kind !== 'bash') continue
    const pattern = rule.parsed.pattern
    if (texts.some((t) => bashPatternMatches(pattern, t))) return rule
  }
  return undefined
}

/**
 * First path rule matching a place for an operation. Read rules cover reads; Edit rules cover
 * edits; a Read deny/ask also covers edits. Symlinks: allow needs both the path as written and
 * where it really leads to match, deny/ask match if either does (an unknowable real path never
 * satisfies an allow rule). A deny/ask rule that names one file also covers every hard link to it
 * (same device and inode): a second name for the file is the same file.
 */
export function matchPathRule(rules: LoadedRule[], place: Place, op: 'read' | 'edit', behavior: RuleBehavior, projectRoot: string, home: string): LoadedRule | undefined {
  let identity: FileIdentity | null | undefined
  for (const rule of rules) {
    if (!pathRuleApplies(rule, op, behavior)) continue
    const compiled = compiledRule(rule, projectRoot, home, behavior)
    const written = pathPatternMatches(compiled, place.path)
    const real = place.real === undefined ? false : place.real === place.path ? written : pathPatternMatches(compiled, place.real)
    if (behavior === 'allow' ? written && real : written || real) return rule
    if (behavior === 'allow') continue
    const named = namedFile(compiled)
    if (named === undefined) continue
    identity ??= linkedFileIdentity(place.real ?? place.path)
    if (identity && sameFile(identity, named)) return rule
  }
  return undefined
}

interface FileIdentity {
  dev: number
  ino: number
}

/** The one file a compiled pattern names (no glob, not "at any depth"), or undefined. */
function namedFile(compiled: ReturnType<typeof compilePathPattern>): string | undefined {
  if (compiled.globs.length !== 1) return undefined
  const glob = compiled.globs[0] as string
  if (glob === '**' || /[*?[\]{}!]/.test(glob)) return undefined
  return join(compiled.base, glob)
}

/** Device and inode of a regular file with more than one name; null otherwise (nothing to compare). */
function linkedFileIdentity(path: string): FileIdentity | null {
  try {
    const stat = statSync(path)
    return stat.isFile() && stat.nlink > 1 ? { dev: stat.dev, ino: stat.ino } : null
  } catch {
    return null
  }
}

function sameFile(identity: FileIdentity, path: string): boolean {
  try {
    const stat = statSync(path)
    return stat.dev === identity.dev && stat.ino === identity.ino
  } catch {
    return false
  }
}

/**
 * First deny/ask path rule that could match something inside `folder` (written or real), for
 * searches that read a whole tree (grep -r, rg, find, the Grep tool on a folder).
 */
export function matchPathRuleBelow(rules: LoadedRule[], folder: Place, behavior: 'deny' | 'ask', projectRoot: string, home: string): LoadedRule | undefined {
  for (const rule of rules) {
    if (!pathRuleApplies(rule, 'read', behavior)) continue
    const compiled = compiledRule(rule, projectRoot, home, behavior)
    if (pathPatternMayMatchBelow(compiled, folder.path) || (folder.real !== undefined && pathPatternMayMatchBelow(compiled, folder.real))) return rule
  }
  return undefined
}

function pathRuleApplies(rule: LoadedRule, op: 'read' | 'edit', behavior: RuleBehavior): boolean {
  if (rule.parsed.kind !== 'path') return false
  const tool = rule.parsed.tool
  return tool === (op === 'read' ? 'Read' : 'Edit') || (op === 'edit' && tool === 'Read' && behavior !== 'allow')
}

/** Rules are compiled once per (rule, project, home, behaviour): a gate checks the same few rules on every call. */
const compiledRules = new WeakMap<LoadedRule, Map<string, ReturnType<typeof compilePathPattern>>>()

function compiledRule(rule: LoadedRule, projectRoot: string, home: string, behavior: RuleBehavior): ReturnType<typeof compilePathPattern> {
  const key = `${projectRoot}\0${home}\0${behavior === 'allow'}`
  let byKey = compiledRules.get(rule)
  if (!byKey) {
    byKey = new Map()
    compiledRules.set(rule, byKey)
  }
  let compiled = byKey.get(key)
  if (!compiled) {
    const pattern = rule.parsed.kind === 'path' ? rule.parsed.pattern : ''
    compiled = compilePathPattern(pattern, { sourceRoot: rule.sourceRoot, cwd: projectRoot, home }, behavior === 'allow')
    byKey.set(key, compiled)
  }
  return compiled
}

/** First WebFetch domain rule matching the host. */
export function matchDomainRule(rules: LoadedRule[], host: string): LoadedRule | undefined {
  return rules.find((rule) => rule.parsed.kind === 'domain' && domainMatches(rule.parsed.domain, host))
}

/** First `Agent(type)`, `Skill(name)` or `Tool(param:value)` rule matching the input. */
export function matchSpecifierRule(rules: LoadedRule[], toolName: string, input: Record<string, unknown>): LoadedRule | undefined {
  return rules.find((rule) => {
    const parsed = rule.parsed
    // An Agent call without a type starts the general-purpose agent, so `Agent(general-purpose)` covers it.
    if (parsed.kind === 'agent') return (toolName === 'Agent' || toolName === 'Task') && (input.subagent_type ?? 'general-purpose') === parsed.agentType
    if (parsed.kind === 'skill') return toolName === 'Skill' && typeof input.skill === 'string' && skillMatches(parsed.pattern, input.skill)
    if (parsed.kind === 'param') return toolNameMatches(parsed.tool, toolName) && String(input[parsed.param] ?? '') === parsed.value
    return false
  })
}

/**
 * True when a Read deny or ask rule covers the file (as written or where it really leads): a
 * search must leave it out of what it returns, since nobody is asked about each file it reads.
 */
export function readRefused(rules: { deny: LoadedRule[]; ask: LoadedRule[] }, place: Place, projectRoot: string, home: string): boolean {
  return matchPathRule(rules.deny, place, 'read', 'deny', projectRoot, home) !== undefined || matchPathRule(rules.ask, place, 'read', 'ask', projectRoot, home) !== undefined
}
