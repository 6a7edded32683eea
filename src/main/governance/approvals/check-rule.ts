import { bashPatternMatches } from '../rules/bash-pattern'
import { parseRule, toolNameMatches } from '../rules/parse'
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

/**
 * Checks a rule the user is editing against the request it is for, so "always allow" shows what
 * it would allow before anything is written. Bash rules are matched against each simple command
 * of the request (as the gate does: every one must be allowed); other rules against the tool name.
 * Path and domain rules are only parsed.
 */
export function checkRule(request: ApprovalRequest, text: string): RuleCheck {
  const parsed = parseRule(text)
  if (!parsed.ok) return { ok: false, error: parsed.error, matches: [], misses: [], covers: false }
  const rule = parsed.rule
  if (rule.kind === 'bash') {
    if (request.toolName !== 'Bash') return { ok: true, error: `a Bash rule does not apply to ${request.toolName}`, matches: [], misses: [request.toolName], covers: false }
    const commands = commandsOf(request)
    const matches = commands.filter((command) => bashPatternMatches(rule.pattern, command))
    const misses = commands.filter((command) => !matches.includes(command))
    return { ok: true, matches, misses, covers: commands.length > 0 && misses.length === 0 }
  }
  if (rule.kind === 'tool') {
    const covers = toolNameMatches(rule.tool, request.toolName)
    return { ok: true, matches: covers ? [request.toolName] : [], misses: covers ? [] : [request.toolName], covers }
  }
  return { ok: true, ...(parsed.warning ? { error: parsed.warning } : {}), matches: [], misses: [], covers: false }
}

function commandsOf(request: ApprovalRequest): string[] {
  const preview = request.preview
  if (preview?.kind === 'command') {
    const list = 'commands' in preview && preview.commands?.length ? preview.commands : 'subcommands' in preview && preview.subcommands.length ? preview.subcommands : [preview.command]
    return [...new Set(list)]
  }
  const command = (request.input as { command?: unknown } | null)?.command
  return typeof command === 'string' ? [command] : []
}
