import { isAbsolute, relative, sep } from 'node:path'
import picomatch from 'picomatch'

/**
 * Read/Edit rule specifiers, gitignore-style (REFERENCE 2.1):
 * `//abs/path` absolute, `~/x` from home, `/x` from the settings source's root, `./x` or `x` from the
 * project root. A pattern without an inner slash (`.env`, `*.key`) matches at any depth; a
 * single-segment directory pattern (`src/**`) matches only `<root>/src` in allow rules and at any
 * depth in deny/ask rules. A pattern that matches a directory also matches everything inside it.
 */
export interface PathPatternBases {
  /** Root of the settings source holding the rule (project root, or home for user settings). */
  sourceRoot: string
  /** Anchor of relative patterns (the project root). */
  cwd: string
  home: string
}

interface CompiledPathPattern {
  base: string
  /** The gitignore-style globs, relative to `base` (a bare name is tried at any depth too). */
  globs: string[]
  matchers: Array<(rel: string) => boolean>
}

const OPTIONS = { dot: true } as const

/** Compiles a path specifier for one rule behaviour. */
export function compilePathPattern(pattern: string, bases: PathPatternBases, forAllow: boolean): CompiledPathPattern {
  let base: string
  let rel: string
  let anyDepth = false
  if (pattern.startsWith('//')) {
    base = '/'
    rel = pattern.slice(2)
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    base = bases.home
    rel = pattern.slice(2)
  } else if (pattern.startsWith('/')) {
    base = bases.sourceRoot
    rel = pattern.slice(1)
  } else if (pattern.startsWith('./')) {
    base = bases.cwd
    rel = pattern.slice(2)
  } else {
    base = bases.cwd
    rel = pattern
    const inner = rel.replace(/\/+$/, '')
    if (!inner.includes('/')) anyDepth = true
    else if (!forAllow && /^[^/*?[\]{}]+\/\*\*$/.test(inner)) anyDepth = true
  }
  if (rel.endsWith('/')) rel = `${rel}**`
  if (rel === '') rel = '**'
  const globs = anyDepth ? [rel, `**/${rel}`] : [rel]
  return { base, globs, matchers: globs.map((glob) => picomatch(glob, OPTIONS)) }
}

/** True when `absPath` (or a directory above it, inside the pattern's base) matches. */
export function pathPatternMatches(compiled: CompiledPathPattern, absPath: string): boolean {
  const rel = relative(compiled.base, absPath)
  if (rel.startsWith('..') || isAbsolute(rel)) return false
  if (rel === '') return compiled.matchers.some((matcher) => matcher(''))
  const parts = rel.split(sep)
  for (let i = parts.length; i >= 1; i--) {
    const candidate = parts.slice(0, i).join('/')
    if (compiled.matchers.some((matcher) => matcher(candidate))) return true
  }
  return false
}

/**
 * True when some path inside the folder `absDirectory` could match: the folder lies inside a
 * matching folder, holds the pattern's whole base, or the glob's leading segments can walk down
 * to it. "Could" is decided from the pattern alone (a recursive search of that folder might reach
 * a matching file), not from what is on disk.
 */
export function pathPatternMayMatchBelow(compiled: CompiledPathPattern, absDirectory: string): boolean {
  const rel = relative(compiled.base, absDirectory)
  if (isAbsolute(rel)) return false
  if (rel === '..' || rel.startsWith(`..${sep}`)) return relative(absDirectory, compiled.base).split(sep)[0] !== '..'
  const parts = rel === '' ? [] : rel.split(sep)
  return compiled.globs.some((glob) => mayWalk(glob.split('/'), parts, 0, 0))
}

/** Whether glob segments from `gi` can match a path that starts with `parts` from `pi` (or a folder above it). */
function mayWalk(segments: string[], parts: string[], gi: number, pi: number): boolean {
  if (pi >= parts.length || gi >= segments.length) return true
  const segment = segments[gi] as string
  if (segment === '**') return mayWalk(segments, parts, gi + 1, pi) || mayWalk(segments, parts, gi, pi + 1)
  return segmentMatcher(segment)(parts[pi] as string) && mayWalk(segments, parts, gi + 1, pi + 1)
}

const segmentMatchers = new Map<string, (name: string) => boolean>()

function segmentMatcher(segment: string): (name: string) => boolean {
  let matcher = segmentMatchers.get(segment)
  if (!matcher) {
    matcher = picomatch(segment, OPTIONS)
    segmentMatchers.set(segment, matcher)
  }
  return matcher
}
