/**
 * Hook matchers (REFERENCE 2.4): `*`, `""` or none match everything; a string of only
 * `[A-Za-z0-9_\- ,|]` is an exact name or a `|`/`,` list; anything else is an unanchored RegExp.
 * An invalid RegExp matches nothing (reported by the runner).
 */
export function matcherMatches(matcher: string | undefined, value: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true
  if (/^[A-Za-z0-9_\- ,|]+$/.test(matcher)) {
    return matcher.split(/[|,]/).map((s) => s.trim()).filter(Boolean).includes(value)
  }
  try {
    return new RegExp(matcher).test(value)
  } catch {
    return false
  }
}
