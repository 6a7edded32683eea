import { lstat, mkdir, realpath } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { worktreeFolderName } from './names'

/** `<root>/.claude/worktrees`: where worktrees live (Claude Code's place). */
export function worktreesDir(root: string): string {
  return join(root, '.claude', 'worktrees')
}

/** Whether `path` is `root` itself or below it (both already real paths). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith('/'))
}

/**
 * The folder a new worktree named `name` goes in, made sure to stay in `.claude/worktrees`: the
 * repository is untrusted, so `.claude` or `.claude/worktrees` may be symlinks planted to send
 * the checkout somewhere else (a `git worktree add` there would write files wherever they point).
 * Each of the two is created when missing and must be a real folder, not a link; the target must
 * not exist yet. Throws an Error with the sentence to show otherwise.
 */
export async function newWorktreeFolder(root: string, name: string): Promise<string> {
  const realRoot = await realpath(root)
  for (const part of [join(realRoot, '.claude'), worktreesDir(realRoot)]) {
    const stat = await lstat(part).catch(() => undefined)
    if (!stat) await mkdir(part, { mode: 0o755 })
    else if (stat.isSymbolicLink()) throw new Error(`${relative(realRoot, part)} is a symbolic link: worktrees are not made through it (it could lead outside the project).`)
    else if (!stat.isDirectory()) throw new Error(`${relative(realRoot, part)} is not a folder, so no worktree can be made there.`)
  }
  const dir = worktreesDir(realRoot)
  // Checked again now that both exist: a folder swapped for a link in between is caught here.
  if ((await realpath(dir)) !== dir) throw new Error('.claude/worktrees leads outside the project: no worktree is made there.')
  const target = join(dir, worktreeFolderName(name))
  if (!isInside(target, dir) || target === dir) throw new Error(`"${name}" would leave .claude/worktrees.`)
  if (await lstat(target).catch(() => undefined)) throw new Error(`A worktree folder named ${worktreeFolderName(name)} already exists in .claude/worktrees: choose another name.`)
  return target
}

/**
 * Whether an existing `path` is really a worktree folder of this repository's `.claude/worktrees`
 * (its real path, symlinks followed, is a direct child of it). For EnterWorktree `{path}` and for
 * cleanup, so neither touches a folder elsewhere. Contract: never rejects.
 */
export async function isManagedWorktreeFolder(root: string, path: string): Promise<boolean> {
  try {
    const dir = await realpath(worktreesDir(root))
    const real = await realpath(path)
    const rel = relative(dir, real)
    return rel !== '' && !rel.includes(sep) && rel !== '..' && (await lstat(path)).isDirectory()
  } catch {
    return false
  }
}
