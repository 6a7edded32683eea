import { relative } from 'node:path'
import { bashAnalyzerIfReady } from '../bash/analyzer'
import { hostOf } from '../rules/domain'
import { quoteWord, writtenText } from '../decide/match'
import { placeOf } from '../paths/place'

/** Claude Code saves at most this many rules for one compound command. */
export const MAX_SUGGESTED_RULES = 5

/** Programs whose first argument is a subcommand, so a rule keeps it (`Bash(git commit *)`). */
const SUBCOMMAND_TOOLS = new Set(['git', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'pip3', 'npx', 'deno', 'gh', 'uv', 'poetry'])

/**
 * Editable rules for "always allow" / "allow for this session": one per subcommand of a bash
 * command (max 5, read-only ones skipped), a directory rule for edits, a domain rule for fetches.
 */
export function suggestRules(toolName: string, input: unknown, where: { cwd: string; projectRoot: string; home: string }): string[] {
  const rec = (input ?? {}) as Record<string, unknown>
  if (toolName === 'Bash' && typeof rec.command === 'string') {
    const analyzer = bashAnalyzerIfReady()
    if (!analyzer) return []
    const { analyzeBashSync, isReadOnlyCommand, stripSafeWrappers } = analyzer
    const a = analyzeBashSync(rec.command, { cwd: where.cwd, projectRoot: where.projectRoot, home: where.home })
    const rules: string[] = []
    for (const c of a.commands) {
      if (c.argv.length === 0 || c.dynamic) continue
      const { argv } = stripSafeWrappers(c.argv)
      if (argv.length === 0 || isReadOnlyCommand(argv)) continue
      const rule = bashRule(argv, writtenText(c))
      if (!rules.includes(rule)) rules.push(rule)
    }
    return rules.slice(0, MAX_SUGGESTED_RULES)
  }
  const file = typeof rec.file_path === 'string' ? rec.file_path : typeof rec.notebook_path === 'string' ? rec.notebook_path : undefined
  if (file !== undefined && ['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read'].includes(toolName)) {
    const family = toolName === 'Read' ? 'Read' : 'Edit'
    const abs = placeOf(file, where.cwd, where.home).path
    const rel = relative(where.projectRoot, abs)
    return [rel.startsWith('..') ? `${family}(/${abs})` : `${family}(/${rel})`]
  }
  if (toolName === 'WebFetch' && typeof rec.url === 'string') {
    const host = hostOf(rec.url)
    return host ? [`WebFetch(domain:${host})`] : []
  }
  return [toolName]
}

/**
 * A prefix rule for a program with subcommands, else the command exactly: as written when it is
 * plain (Claude Code compares the command text, so `git commit -m "a b"` stays as typed), else its
 * words quoted where needed.
 */
function bashRule(argv: string[], written: string | undefined): string {
  const [name = '', sub, third] = argv
  if (SUBCOMMAND_TOOLS.has(name) && sub && !sub.startsWith('-')) {
    if ((name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') && sub === 'run' && third) return `Bash(${name} run ${quoteWord(third)} *)`
    return `Bash(${name} ${quoteWord(sub)} *)`
  }
  return `Bash(${written ?? argv.map(quoteWord).join(' ')})`
}
