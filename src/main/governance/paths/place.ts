import { isAbsolute, relative, resolve, sep } from 'node:path'
import { realDirectory, realPathOf } from './real-path'

/**
 * A path as a permission check sees it: `path` is the absolute path as written (normalized
 * lexically, what rules and people read), `real` is where it really leads (see `realPathOf`);
 * `real` is undefined when that cannot be known (a link loop).
 */
export interface Place {
  path: string
  real: string | undefined
}

/** True when `path` is `root` or below it (lexically). */
export function isUnder(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/**
 * True when the place lies inside one of `roots`, both as written and where it really leads
 * (roots compared as written and as their real paths, so a project opened through a symlink
 * still counts). `realRoots` may be passed when the caller checks many places.
 */
export function isInsideRoots(place: Place, roots: readonly string[], realRoots: readonly string[] = roots.map(realDirectory)): boolean {
  if (place.real === undefined) return false
  const written = roots.some((root) => isUnder(place.path, root)) || realRoots.some((root) => isUnder(place.path, root))
  return written && realRoots.some((root) => isUnder(place.real as string, root))
}

/** The spellings of a place a deny rule is tried against: as written and where it leads. */
export function spellings(place: Place): string[] {
  return place.real === undefined || place.real === place.path ? [place.path] : [place.path, place.real]
}

/**
 * The place a file tool's path names: `~` and `~/…` stand for the home folder (the tools want
 * absolute paths; a `~` is read the cautious way), anything else is relative to `cwd`.
 */
export function placeOf(path: string, cwd: string, home: string): Place {
  const expanded = path === '~' ? home : path.startsWith('~/') ? `${home}/${path.slice(2)}` : path
  return { path: resolve(cwd, expanded), real: realPathOf(expanded, cwd) }
}
