import { lstat, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'

/**
 * Why `path` is no path a merge may write in the base (absolute, `..`, empty parts, inside `.git`
 * or the worktrees folder); undefined when it is one. Paths come from git's listing of a worktree
 * a model wrote, and from the renderer: both are checked.
 */
export function checkRelativePath(path: string): string | undefined {
  if (!path || path.length > 4096 || path.includes('\0')) return 'not a file path'
  if (isAbsolute(path) || path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return 'an absolute path'
  const parts = path.split(/[\\/]/)
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return 'a path that leaves the checkout'
  if (parts[0]?.toLowerCase() === '.git' || parts.includes('.git')) return "a path inside git's own folder"
  if (path.startsWith('.claude/worktrees/')) return 'a path inside the worktrees folder'
  return undefined
}

/**
 * Where `path` really leads under `root`, checked: its nearest existing folder resolves (symbolic
 * links followed, as the kernel will) inside `root`, and the file itself is no symbolic link.
 * Throws with the reason otherwise.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  const bad = checkRelativePath(path)
  if (bad) throw new Error(`${path}: ${bad}`)
  const realRoot = await realpath(root)
  const target = join(realRoot, path)
  const stat = await lstat(target).catch(() => undefined)
  if (stat?.isSymbolicLink()) throw new Error(`${path}: a symbolic link in the base`)
  let folder = dirname(target)
  for (;;) {
    const real = await realpath(folder).catch(() => undefined)
    if (real !== undefined) {
      const inside = relative(realRoot, real)
      if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep)[0] === '..') throw new Error(`${path}: leads outside the checkout`)
      return target
    }
    const up = dirname(folder)
    if (up === folder) throw new Error(`${path}: no folder to write it in`)
    folder = up
  }
}
