import { existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/**
 * Path facts for permission checks: where a path really is (symlinks followed as far as the path
 * exists) and whether it stays inside the project (or an additional working directory).
 */

/** Resolves `p` against `cwd`, expanding a leading `~`. */
export function resolveUserPath(p: string, cwd: string, home: string = homedir()): string {
  if (p === '~') return home
  if (p.startsWith('~/')) return join(home, p.slice(2))
  return resolve(cwd, p)
}

/**
 * The real location of a path that may not exist yet: the longest existing prefix is passed
 * through realpath (so a symlinked directory escaping the project is seen), the rest is appended.
 */
export function realLocation(abs: string): string {
  let existing = abs
  const tail: string[] = []
  for (let guard = 0; guard < 4096; guard++) {
    if (existsSync(existing)) break
    const parent = dirname(existing)
    if (parent === existing) break
    tail.unshift(existing.slice(parent.length).replace(/^\/+/, ''))
    existing = parent
  }
  let real = existing
  try {
    real = realpathSync(existing)
  } catch {
    // A dangling symlink or a permission problem: keep the lexical path; callers also check it.
  }
  return tail.length > 0 ? join(real, ...tail) : real
}

/** True when `abs` is `root` or below it (lexically). */
export function isUnder(abs: string, root: string): boolean {
  const rel = relative(root, abs)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** True when both the lexical and the real location of `abs` lie inside one of `roots` (themselves resolved). */
export function isInsideRoots(abs: string, roots: string[]): boolean {
  const real = realLocation(abs)
  const realRoots = roots.map((r) => realLocation(r))
  const lexical = roots.some((r) => isUnder(abs, r)) || realRoots.some((r) => isUnder(abs, r))
  return lexical && realRoots.some((r) => isUnder(real, r))
}
