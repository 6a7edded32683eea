import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/** Includes followed at most this deep (git's own limit is 10). */
const MAX_DEPTH = 10

/** What the sandbox must know of git's configuration for one working tree (see {@link readGitConfigFacts}). */
export interface GitConfigFacts {
  /** Every `core.hooksPath` any of the files names, made absolute: hooks there run on the user's next commit. */
  hooksPaths: string[]
  /** Every file an include or includeIf names (absolute), followed: each is as much the repository's config as `.git/config`. */
  includes: string[]
}

/** Where the configuration of a working tree is read from. */
export interface GitConfigPlaces {
  /** The working tree's root: a relative hooks path is taken from there, as git runs hooks there. */
  root: string
  /** The user's home (`~/.gitconfig`, `~/` in values). */
  home: string
  /** The repository's config files (`<common dir>/config`, each `config.worktree`). */
  repository: string[]
  /** The environment (`XDG_CONFIG_HOME`, `GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_COUNT`…, `GIT_CONFIG_PARAMETERS`). */
  env?: NodeJS.ProcessEnv
}

/**
 * Reads git's configuration files for a working tree the way git does, for what makes git run a
 * program from a folder (`core.hooksPath`) and which files count as configuration (includes): the
 * system's, the user's (`$XDG_CONFIG_HOME/git/config`, `~/.gitconfig`), the repository's, each
 * with the files it includes followed — `includeIf` too, whatever its condition, since a condition
 * can come true later (another branch, another folder). Values are read as git reads them: quotes,
 * escapes, a `;` or `#` comment after the value, a section header on the same line as a key.
 * Every hooks path named is listed, not only the last: which one wins can change with an
 * includeIf, and denying one too many only protects a folder more. Contract: never throws; an
 * unreadable file counts as empty, as git counts a missing one.
 */
export function readGitConfigFacts(places: GitConfigPlaces): GitConfigFacts {
  const env = places.env ?? process.env
  const facts: GitConfigFacts = { hooksPaths: [], includes: [] }
  const seen = new Set<string>()
  const take = (found: ConfigEntry[], from: string | undefined, depth: number): void => {
    for (const { section, key, value } of found) {
      if (section === 'core' && key === 'hookspath' && value) facts.hooksPaths.push(pathOf(value, places.root, places.home))
      if ((section === 'include' || section.startsWith('includeif.')) && key === 'path' && value) {
        // git refuses a relative include from the command line (no file to be relative to).
        if (from === undefined && !isAbsolute(value) && !value.startsWith('~')) continue
        const included = pathOf(value, from ?? places.root, places.home)
        facts.includes.push(included)
        read(included, depth + 1)
      }
    }
  }
  const read = (file: string, depth: number): void => {
    if (depth > MAX_DEPTH || seen.has(file)) return
    seen.add(file)
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      return
    }
    take(entries(text), dirname(file), depth)
  }
  for (const file of [...configFiles(env, places.home), ...places.repository]) read(file, 0)
  take(environmentEntries(env), undefined, 0)
  return { hooksPaths: [...new Set(facts.hooksPaths)], includes: [...new Set(facts.includes)] }
}

/**
 * The system's and the user's config files, as git finds them, and more: the ones the environment
 * names (`GIT_CONFIG_SYSTEM`, `GIT_CONFIG_GLOBAL`) and the usual ones both, since the user's git in
 * another terminal may run without those variables. `GIT_CONFIG_NOSYSTEM` leaves the system's out.
 */
function configFiles(env: NodeJS.ProcessEnv, home: string): string[] {
  const xdg = env['XDG_CONFIG_HOME'] ? join(env['XDG_CONFIG_HOME'], 'git', 'config') : join(home, '.config', 'git', 'config')
  const system = gitBool(env['GIT_CONFIG_NOSYSTEM']) ? [] : ['/etc/gitconfig', ...(env['GIT_CONFIG_SYSTEM'] ? [env['GIT_CONFIG_SYSTEM']] : [])]
  return [...system, xdg, join(home, '.gitconfig'), ...(env['GIT_CONFIG_GLOBAL'] ? [env['GIT_CONFIG_GLOBAL']] : [])].map((file) => resolve(file))
}

/** A boolean environment variable as git reads one (`1`, `true`, `yes`, `on`; empty or unset is false). */
function gitBool(value: string | undefined): boolean {
  if (value === undefined || value === '') return false
  if (/^(?:false|no|off|0+)$/i.test(value)) return false
  return true
}

/**
 * The configuration the environment itself carries, as every git run from it reads: the
 * `GIT_CONFIG_COUNT` pairs (`GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_VALUE_<n>`) and what `git -c` passes
 * on to the git processes it starts (`GIT_CONFIG_PARAMETERS`).
 */
function environmentEntries(env: NodeJS.ProcessEnv): ConfigEntry[] {
  const pairs: Array<[string, string | undefined]> = []
  const count = Number(env['GIT_CONFIG_COUNT'] ?? 0)
  for (let index = 0; Number.isInteger(count) && index < Math.min(count, 1000); index++) {
    const key = env[`GIT_CONFIG_KEY_${index}`]
    if (key) pairs.push([key, env[`GIT_CONFIG_VALUE_${index}`] ?? ''])
  }
  pairs.push(...parameterPairs(env['GIT_CONFIG_PARAMETERS'] ?? ''))
  return pairs.flatMap(([name, value]) => {
    const dot = name.lastIndexOf('.')
    if (dot <= 0) return []
    const first = name.indexOf('.')
    // `section.sub.section.key`: the section lowercased, a subsection kept as written.
    const section = name.slice(0, first).toLowerCase() + (first === dot ? '' : name.slice(first, dot))
    return [{ section, key: name.slice(dot + 1).toLowerCase(), value }]
  })
}

/** `GIT_CONFIG_PARAMETERS`: single-quoted shell words (git's `sq_quote`), `'key'='value'` or the older `'key=value'`. */
function parameterPairs(text: string): Array<[string, string | undefined]> {
  const pairs: Array<[string, string | undefined]> = []
  // Inside a word git writes a quote as '\'' and an exclamation mark as '\!'.
  const word = String.raw`'((?:[^']|'\\[!']')*)'`
  const unquote = (quoted: string) => quoted.replace(/'\\([!'])'/g, '$1')
  for (const match of text.matchAll(new RegExp(`${word}(?:=${word})?`, 'g'))) {
    const first = unquote(match[1]!)
    if (match[2] !== undefined) pairs.push([first, unquote(match[2])])
    else {
      const equals = first.indexOf('=')
      pairs.push(equals < 0 ? [first, undefined] : [first.slice(0, equals), first.slice(equals + 1)])
    }
  }
  return pairs
}

/** Every value of `section.key` in one config file (no includes followed); none when it cannot be read. */
export function configValues(file: string, section: string, key: string): string[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return entries(text).flatMap((entry) => (entry.section === section && entry.key === key && entry.value !== undefined ? [entry.value] : []))
}

/** A path value as git expands it: `~/` from home, relative from `from`. */
function pathOf(value: string, from: string, home: string): string {
  const expanded = value === '~' ? home : value.startsWith('~/') ? join(home, value.slice(2)) : value
  return isAbsolute(expanded) ? resolve(expanded) : resolve(from, expanded)
}

/** One `key = value` of a config file: the section lowercased (`includeif.<subsection>` keeps its subsection as written), the key lowercased. */
interface ConfigEntry {
  section: string
  key: string
  value: string | undefined
}

/** The entries of a config file's text, in order (git's syntax; a line git would refuse is skipped). */
function entries(text: string): ConfigEntry[] {
  const out: ConfigEntry[] = []
  const lines = text.split('\n')
  let section = ''
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!.trimStart()
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
    if (header) {
      section = header[1]!.toLowerCase() + (header[2] !== undefined ? `.${header[2]}` : '')
      line = line.slice(header[0].length).trimStart()
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)/.exec(line)
    if (!entry) continue
    if (!entry[2]) {
      out.push({ section, key: entry[1]!.toLowerCase(), value: undefined })
      continue
    }
    // A value may go on over the next lines (a backslash at the end of a line).
    let rest = line.slice(entry[0].length)
    while (/(^|[^\\])(\\\\)*\\\r?$/.test(rest) && index + 1 < lines.length) rest = rest.replace(/\\\r?$/, '') + lines[++index]!
    out.push({ section, key: entry[1]!.toLowerCase(), value: valueOf(rest) })
  }
  return out
}

/** A value's text as git reads it: quotes joined, escapes taken, a comment cut, outer spaces trimmed. */
function valueOf(raw: string): string {
  let value = ''
  let quoted = false
  let pending = ''
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index]!
    if (char === '"') {
      quoted = !quoted
      value += pending
      pending = ''
      continue
    }
    if (char === '\\' && index + 1 < raw.length) {
      const next = raw[++index]!
      value += pending + (({ n: '\n', t: '\t', b: '\b' } as Record<string, string>)[next] ?? next)
      pending = ''
      continue
    }
    if (!quoted && (char === ';' || char === '#')) break
    if (!quoted && (char === ' ' || char === '\t' || char === '\r')) {
      // Spaces count only when something follows them.
      if (value !== '') pending += char
      continue
    }
    value += pending + char
    pending = ''
  }
  return value
}
