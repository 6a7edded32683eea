import { escapeRegExp } from './parse'

/**
 * Bash rule specifiers (REFERENCE 2.1): `*` matches any sequence (spaces included) anywhere;
 * a space before a trailing `*` is a word boundary (`ls *` matches `ls` and `ls -la`, not `lsof`);
 * the legacy `:*` suffix equals a trailing ` *` and only counts at the end.
 */
export function compileBashPattern(pattern: string): RegExp {
  let text = pattern.trim()
  if (text.endsWith(':*')) text = `${text.slice(0, -2)} *`
  let body: string
  if (text.endsWith(' *')) {
    const head = text.slice(0, -2)
    body = `${wildcards(head)}(?: [\\s\\S]*)?`
  } else {
    body = wildcards(text)
  }
  return new RegExp(`^${body}$`)
}

function wildcards(text: string): string {
  return text.split('*').map(escapeRegExp).join('[\\s\\S]*')
}

/** Compiled specifiers: a gate matches the same few dozen rules on every call. */
const compiled = new Map<string, RegExp>()
const MAX_COMPILED = 1_000

/** True when the normalized command text matches the rule specifier. */
export function bashPatternMatches(pattern: string, commandText: string): boolean {
  let regex = compiled.get(pattern)
  if (!regex) {
    if (compiled.size >= MAX_COMPILED) compiled.clear()
    regex = compileBashPattern(pattern)
    compiled.set(pattern, regex)
  }
  return regex.test(commandText)
}
