import { join } from 'node:path'

/**
 * Where teams live: Claude Code's `teams/` folder in its home (`~/.claude`, or
 * `CLAUDE_CONFIG_DIR`), one folder per team with `config.json` and `inboxes/<name>.json`.
 */
export function teamsDir(userHome: string, env: NodeJS.ProcessEnv): string {
  return join(env['CLAUDE_CONFIG_DIR']?.trim() || join(userHome, '.claude'), 'teams')
}

/**
 * A team or member name as a folder or file name (Claude Code sanitizes the same way): lower case,
 * anything but letters, digits, `_` and `-` becomes `-`. Undefined when nothing usable is left.
 */
export function sanitizeName(name: string): string | undefined {
  const clean = name.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '')
  return isValidMemberName(clean) ? clean : undefined
}

/** Whether a name may be a file or folder name here: 1–64 of letters, digits, `_` and `-`. */
export function isValidMemberName(name: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(name)
}

/** The folder of one team (the name must be sanitized). */
export function teamDir(root: string, teamName: string): string {
  if (!isValidMemberName(teamName)) throw new Error(`"${teamName}" is not a usable team name.`)
  return join(root, teamName)
}
