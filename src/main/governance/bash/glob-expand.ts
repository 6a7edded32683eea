import { lstatSync, readdirSync, type Dirent } from 'node:fs'
import picomatch from 'picomatch'

/** Folder entries looked at before giving up: past this, what a glob matches is "unknown". */
const MAX_ENTRIES = 5_000

/**
 * The files a glob word names now, expanded as bash would (no `dotglob`, no `globstar`: `*`
 * does not match a leading dot and `**` is `*`): absolute paths, not normalized (so `..` after a
 * symlink still means what the kernel makes of it), each saying whether it is a symlink (read from
 * the folder listing, so placing the matches costs no call per file). `value` is the word's dequoted text and
 * `shape` its mirror with quoted characters replaced by NUL, so only unquoted `*`, `?` and
 * `[…]` glob. Returns `undefined` when the folders hold too many entries to look at.
 * Contract: never throws; unreadable folders match nothing, as in bash.
 */
export function expandGlob(value: string, shape: string, cwd: string): GlobMatch[] | undefined {
  const absolute = value.startsWith('/')
  const parts = splitSegments(value, shape)
  let current: GlobMatch[] = [{ path: absolute ? '/' : cwd, link: false }]
  let budget = MAX_ENTRIES
  let unchecked = false
  let globbed = false
  for (const part of parts) {
    if (!part.glob) {
      current = current.map((match) => ({ path: match.path === '/' ? `/${part.text}` : `${match.path}/${part.text}`, link: false }))
      unchecked ||= globbed
      continue
    }
    globbed = true
    const matches = matcherFor(part.pattern)
    const next: GlobMatch[] = []
    for (const { path: dir } of current) {
      let entries: Dirent[]
      try {
        entries = readdirSync(dir, { withFileTypes: true })
      } catch {
        continue
      }
      budget -= entries.length
      if (budget < 0) return undefined
      // bash before 5.2 (and with globskipdots off) lets `.*` match `.` and `..`; without a
      // literal leading dot, nothing (not even `[!s]`) matches a name that starts with one.
      const explicitDot = part.text.startsWith('.')
      const names = entries.map((entry) => ({ name: entry.name, link: entry.isSymbolicLink() }))
      if (explicitDot) names.push({ name: '.', link: false }, { name: '..', link: false })
      for (const { name, link } of names) {
        if ((explicitDot || !name.startsWith('.')) && matches(name)) next.push({ path: dir === '/' ? `/${name}` : `${dir}/${name}`, link })
      }
    }
    current = next
  }
  // Literal parts after a glob part were appended unchecked: bash yields only what exists.
  if (!unchecked) return current
  return current.filter((match) => exists(match.path)).map((match) => ({ path: match.path, link: isLink(match.path) }))
}

/** A file a glob matched, and whether it is a symlink itself (then it is followed in full). */
export interface GlobMatch {
  path: string
  link: boolean
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

const matchers = new Map<string, (name: string) => boolean>()

/** Compiled segment patterns (compiling costs more than matching a folder's entries). */
function matcherFor(pattern: string): (name: string) => boolean {
  let matcher = matchers.get(pattern)
  if (!matcher) {
    if (matchers.size > 500) matchers.clear()
    matcher = picomatch(pattern, { dot: false, posix: true, nobrace: true, noextglob: true })
    matchers.set(pattern, matcher)
  }
  return matcher
}

interface Segment {
  text: string
  glob: boolean
  /** The segment as a picomatch pattern: quoted specials escaped, `[!` turned into `[^`. */
  pattern: string
}

function splitSegments(value: string, shape: string): Segment[] {
  const segments: Segment[] = []
  let text = ''
  let pattern = ''
  let glob = false
  const flush = (): void => {
    if (text !== '') segments.push({ text, glob, pattern })
    text = ''
    pattern = ''
    glob = false
  }
  let inBracket = false
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string
    const quoted = shape[i] === '\0'
    if (ch === '/' && !quoted) {
      flush()
      inBracket = false
      continue
    }
    text += ch
    if (!quoted && inBracket) {
      if (ch === ']') inBracket = false
      pattern += ch === '\\' ? '\\\\' : ch
      continue
    }
    if (!quoted && (ch === '*' || ch === '?')) {
      glob = true
      pattern += ch
      continue
    }
    if (!quoted && ch === '[' && value.indexOf(']', i + 2) !== -1) {
      glob = true
      inBracket = true
      if (value[i + 1] === '!' && shape[i + 1] !== '\0') {
        pattern += '[^'
        text += '!'
        i++
      } else pattern += '['
      // A `]` right after the opening is a member, not the end.
      if (value[i + 1] === ']') {
        pattern += '\\]'
        text += ']'
        i++
      }
      continue
    }
    // Everything else is literal for bash (no extglob; braces were expanded or refused earlier).
    pattern += /[\w-]/.test(ch) ? ch : `\\${ch}`
  }
  flush()
  return segments
}
