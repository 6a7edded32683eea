import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/** The kernel gives up after this many links in one lookup (Linux: 40). */
const MAX_LINKS = 40

/**
 * Where `path` (relative to `cwd` unless absolute) really leads, resolved the way the kernel
 * does and not the way `path.resolve` does: each component is looked at in turn, a symlink is
 * replaced by its target before the next component (so `link/../x` climbs out of the link's
 * target, not back into the folder holding the link), a dangling link leads to its target, and
 * the part that does not exist yet is appended as written. Returns `undefined` for a link loop.
 *
 * Contract: never throws; only the file system's current state is read (lstat, readlink).
 */
export function realPathOf(path: string, cwd: string): string | undefined {
  const queue = path.split('/').filter((part) => part !== '')
  let current = isAbsolute(path) ? '/' : realDirectory(cwd)
  let links = 0
  while (queue.length > 0) {
    const part = queue.shift() as string
    if (part === '.') continue
    if (part === '..') {
      current = dirname(current)
      continue
    }
    const next = join(current, part)
    let target: string | undefined
    try {
      const stats = lstatSync(next)
      if (stats.isSymbolicLink()) target = readlinkSync(next)
    } catch {
      // Nothing there yet: what is left cannot hold a link, so it is appended as written.
      return resolve(next, ...queue)
    }
    if (target === undefined) {
      current = next
      continue
    }
    if (++links > MAX_LINKS) return undefined
    queue.unshift(...target.split('/').filter((part) => part !== ''))
    if (isAbsolute(target)) current = '/'
  }
  return current
}

/** The real path of a folder we expect to exist (the project, a cwd); the path itself when it does not. */
export function realDirectory(directory: string): string {
  try {
    return realpathSync(directory)
  } catch {
    return resolve(directory)
  }
}

/** Whether anything is at `path` itself (a dangling symlink counts: it is there). Contract: never throws. */
export function existsHere(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
