/** What bash's tilde expansion needs to know. `previousCwd` is OLDPWD when the analysis knows it. */
export interface TildeContext {
  home: string
  cwd: string
  previousCwd?: string
}

/**
 * Bash's tilde expansion of a word that starts with an unquoted `~` (the prefix runs to the
 * first `/`): `~` is HOME, `~+` the working directory, `~-` OLDPWD. Everything else (`~user`,
 * `~+2`, `~-1`, `~root/..`) depends on the user database or the directory stack, which the analysis
 * does not follow: it comes back `undefined`, meaning "not knowable", never as a path relative
 * to the project.
 */
export function expandTilde(word: string, context: TildeContext): string | undefined {
  const slash = word.indexOf('/')
  const prefix = slash === -1 ? word.slice(1) : word.slice(1, slash)
  const rest = slash === -1 ? '' : word.slice(slash + 1)
  let base: string | undefined
  if (prefix === '') base = context.home
  else if (prefix === '+') base = context.cwd
  else if (prefix === '-') base = context.previousCwd
  if (base === undefined) return undefined
  // Not normalized: `..` after a symlink must be resolved by where the link leads (realPathOf).
  return rest === '' ? base : `${base.replace(/\/+$/, '')}/${rest}`
}
