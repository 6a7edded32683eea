/**
 * The environment every child process Sous starts gets: Bash commands (and the sandbox around
 * them), hooks, the user's terminals, MCP stdio servers. Sous's own credentials never go along: a
 * repository the model reads can ask it to print the environment, and a child has no need for the
 * key Sous talks to the model with.
 */

/** Variables that hold Sous's (and Claude Code's) credentials for the model. */
export const OWN_CREDENTIALS: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN']

/**
 * Held back when the user's list of secrets cannot be read (a settings file that does not parse):
 * the usual names of credentials, so a broken file hides more, never less.
 */
export const FALLBACK_SECRETS: readonly string[] = ['*_API_KEY', '*_TOKEN', '*_SECRET', '*_SECRET_KEY', '*_PASSWORD', '*_ACCESS_KEY']

/** What the user chose (Settings, `"sous"` in `$SOUS_HOME/settings.json`). */
export interface ChildEnvPolicy {
  /** More variables to hold back: names or `*` patterns, e.g. `*_TOKEN` (case-insensitive). */
  secrets?: readonly string[]
  /** Names that go through even though they match (Sous's own credentials included). */
  passThrough?: readonly string[]
}

/**
 * `env` without Sous's credentials and the variables the policy marks, and without unset values
 * (the shape node-pty and child_process want). Contract: pure; never throws.
 */
export function childEnvironment(env: NodeJS.ProcessEnv, policy: ChildEnvPolicy = {}): Record<string, string> {
  const hidden = [...OWN_CREDENTIALS, ...(policy.secrets ?? [])].map(namePattern)
  const passed = new Set((policy.passThrough ?? []).map((name) => name.toUpperCase()))
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (!passed.has(name.toUpperCase()) && hidden.some((pattern) => pattern.test(name))) continue
    out[name] = value
  }
  return out
}

/** Whether `name` is one `childEnvironment` would hold back under `policy`. */
export function isHeldBack(name: string, policy: ChildEnvPolicy = {}): boolean {
  return !(name in childEnvironment({ [name]: '' }, policy))
}

function namePattern(pattern: string): RegExp {
  const body = pattern
    .trim()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${body}$`, 'i')
}
