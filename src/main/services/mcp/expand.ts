/**
 * `${VAR}` and `${VAR:-default}` expansion in MCP server configurations, as Claude Code does it:
 * a variable that is not set and has no default stays as written (`${VAR}`) and is reported as
 * missing, so the server still loads and the problem is visible.
 */

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** A string after expansion, with the variables that had no value. */
export interface Expanded {
  value: string
  missing: string[]
}

/** Expands one string against `env` (only own, defined values count). */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expanded {
  const missing: string[] = []
  const value = text.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const found = Object.hasOwn(env, name) ? env[name] : undefined
    if (found !== undefined && found !== '') return found
    if (fallback !== undefined) return fallback
    if (found === '') return ''
    missing.push(name)
    return whole
  })
  return { value, missing }
}

/** Expands every value of a string record; keys stay as written. */
export function expandRecord(record: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): { value: Record<string, string>; missing: string[] } {
  const value: Record<string, string> = {}
  const missing: string[] = []
  for (const [key, text] of Object.entries(record)) {
    const expanded = expandVariables(text, env)
    value[key] = expanded.value
    missing.push(...expanded.missing)
  }
  return { value, missing }
}
