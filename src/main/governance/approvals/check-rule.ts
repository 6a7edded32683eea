import { bashAnalyzerIfReady } from '../bash/analyzer'
import { allowTexts } from '../decide/match'
import { bashPatternMatches } from '../rules/bash-pattern'
import { parseRule, toolNameMatches, type ParsedRule } from '../rules/parse'
import type { ApprovalRequest } from './queue'

/** What an edited rule would do for a pending request. */
export interface RuleCheck {
  ok: boolean
  error?: string
  /** The request's commands (or its tool) the rule would allow, and those it would not. */
  matches: string[]
  misses: string[]
  /** The rule allows the whole call. */
  covers: boolean
}

/** One simple command of the request: as shown, and the texts the gate matches allow rules against. */
interface CheckedCommand {
  shown: string
  texts: string[]
}

/**
 * Checks the rules the user is about to save (one, or one per subcommand) against the request
 * they are for, so "always allow" shows what they would allow before anything is written. Bash
 * rules are matched as the gate matches them (each simple command's words re-quoted, or the
 * command as written: {@link allowTexts}), and every command that needs a rule must be matched
 * by one; other rules are matched against the tool name. Path and domain rules are only parsed.
 */
export function checkRule(request: ApprovalRequest, text: string | readonly string[]): RuleCheck {
  const texts = typeof text === 'string' ? [text] : text
  const rules: ParsedRule[] = []
  const warnings: string[] = []
  for (const one of texts) {
    const parsed = parseRule(one)
    if (!parsed.ok) return { ok: false, error: texts.length > 1 ? `${one}: ${parsed.error}` : parsed.error, matches: [], misses: [], covers: false }
    if (parsed.warning) warnings.push(parsed.warning)
    rules.push(parsed.rule)
  }
  const bash = rules.flatMap((rule) => (rule.kind === 'bash' ? [rule.pattern] : []))
  const tools = rules.flatMap((rule) => (rule.kind === 'tool' ? [rule.tool] : []))
  if (tools.some((tool) => toolNameMatches(tool, request.toolName))) return { ok: true, matches: [request.toolName], misses: [], covers: true }
  if (bash.length > 0) {
    if (request.toolName !== 'Bash') return { ok: true, error: `a Bash rule does not apply to ${request.toolName}`, matches: [], misses: [request.toolName], covers: false }
    const commands = commandsOf(request)
    const matches = commands.filter((command) => command.texts.some((form) => bash.some((pattern) => bashPatternMatches(pattern, form)))).map((command) => command.shown)
    const misses = commands.map((command) => command.shown).filter((shown) => !matches.includes(shown))
    return { ok: true, matches: [...new Set(matches)], misses: [...new Set(misses)], covers: commands.length > 0 && misses.length === 0 }
  }
  if (tools.length > 0) return { ok: true, matches: [], misses: [request.toolName], covers: false }
  return { ok: true, ...(warnings.length > 0 && { error: warnings.join('; ') }), matches: [], misses: [], covers: false }
}

/**
 * The request's simple commands that need a rule (read-only ones pass without one, unless every
 * command is read-only), parsed as the gate parses them; the approval's text when the parser is
 * not loaded.
 */
function commandsOf(request: ApprovalRequest): CheckedCommand[] {
  const command = (request.input as { command?: unknown } | null)?.command
  const analyzer = bashAnalyzerIfReady()
  if (typeof command === 'string' && analyzer) {
    const { analyzeBashSync, isReadOnlyCommand, stripSafeWrappers } = analyzer
    // The rule's reach does not depend on where the command runs: paths are not looked at here.
    const analysis = analyzeBashSync(command, { cwd: '/', projectRoot: '/' })
    const real = analysis.commands.flatMap((parsed, index) => (parsed.argv.length > 0 ? [{ parsed, verdict: analysis.verdicts[index] }] : []))
    const needing = real.filter(({ parsed }) => !isReadOnlyCommand(stripSafeWrappers(parsed.argv).argv))
    return (needing.length > 0 ? needing : real).map(({ parsed, verdict }) => ({ shown: parsed.text, texts: allowTexts(parsed, verdict) }))
  }
  const preview = request.preview
  let list: string[] = typeof command === 'string' ? [command] : []
  if (preview?.kind === 'command') list = 'commands' in preview && preview.commands?.length ? preview.commands : 'subcommands' in preview && preview.subcommands.length ? preview.subcommands : [preview.command]
  return [...new Set(list)].map((shown) => ({ shown, texts: [shown] }))
}
