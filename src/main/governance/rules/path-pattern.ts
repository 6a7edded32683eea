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
  return { base, matchers: globs.map((g) => picomatch(g, OPTIONS)) }
}

/** True when `absPath` (or a directory above it, inside the pattern's base) matches. */
export function pathPatternMatches(compiled: CompiledPathPattern, absPath: string): boolean {
  const rel = relative(compiled.base, absPath)
  if (rel.startsWith('..') || isAbsolute(rel)) return false
  if (rel === '') return compiled.matchers.some((m) => m(''))
  const parts = rel.split(sep)
  for (let i = parts.length; i >= 1; i--) {
    const candidate = parts.slice(0, i).join('/')
    if (compiled.matchers.some((m) => m(candidate))) return true
  }
  return false
}
