/**
 * Argument placeholders in skills and commands, as Claude Code documents them:
 * `$ARGUMENTS` (everything as typed), `$ARGUMENTS[N]` and `$N` (0-based, shell-style quoting),
 * `$name` for names declared in `arguments`. `\$1` keeps a literal `$1`. An indexed placeholder
 * with no argument stays as written; a declared name with no argument becomes empty. When the
 * text has no argument placeholder at all, the arguments are appended as `ARGUMENTS: …`.
 */
export function substituteArguments(text: string, args: string, names: readonly string[]): string {
  const words = splitArguments(args)
  const usable = names.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  const named = usable.length > 0 ? `|(?<name>${[...usable].sort((a, b) => b.length - a.length).join('|')})(?![A-Za-z0-9_])` : ''
  const pattern = new RegExp(`(?<escape>\\\\?)\\$(?:ARGUMENTS\\[(?<bracket>\\d+)\\]|ARGUMENTS|(?<short>\\d+)${named})`, 'g')
  let used = false
  const out = text.replace(pattern, (...found: unknown[]) => {
    const whole = found[0] as string
    const groups = found.at(-1) as { escape: string; bracket?: string; short?: string; name?: string }
    if (groups.escape) return whole.slice(1)
    used = true
    const index = groups.bracket ?? groups.short
    if (index !== undefined) return Number(index) < words.length ? words[Number(index)]! : whole
    if (groups.name !== undefined) return words[names.indexOf(groups.name)] ?? ''
    return args
  })
  if (!used && args.trim() !== '') return `${out.replace(/\s+$/, '')}\n\nARGUMENTS: ${args}`
  return out
}

/** Splits arguments like a shell: spaces separate, quotes group (`"hello world" b` → two words). */
export function splitArguments(args: string): string[] {
  const words: string[] = []
  let current = ''
  let quote: '"' | "'" | undefined
  let inWord = false
  for (let index = 0; index < args.length; index++) {
    const char = args[index]!
    if (quote) {
      if (char === quote) quote = undefined
      else if (char === '\\' && quote === '"' && index + 1 < args.length) current += args[++index]
      else current += char
      continue
    }
    if (char === '"' || char === "'") {
      quote = char
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current)
      current = ''
      inWord = false
    } else {
      current += char
      inWord = true
    }
  }
  if (inWord) words.push(current)
  return words
}
