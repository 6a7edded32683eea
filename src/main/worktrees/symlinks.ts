import { mkdir, realpath, stat, symlink } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { isInside } from './location'

/**
 * Links `worktree.symlinkDirectories` (folders such as `node_modules`) from the main checkout into
 * a new worktree, as Claude Code does, so a worktree does not need its own copy. Each link is
 * relative (`../../../node_modules`), so moving the repository keeps it working. A folder is
 * skipped, with a sentence saying why added to `notes` (told to the user once), when it is absent
 * or not a folder in the main checkout, its real place is outside the main checkout, the worktree
 * already holds something there (a tracked folder is never replaced) or its parent in the
 * worktree leads outside it. The names were checked by the settings reader (inside the
 * repository, no `..`). Contract: never rejects.
 */
export async function linkSharedDirectories(root: string, worktree: string, folders: readonly string[], notes: string[]): Promise<void> {
  let realRoot: string, realWorktree: string
  try {
    ;[realRoot, realWorktree] = await Promise.all([realpath(root), realpath(worktree)])
  } catch {
    return
  }
  for (const folder of folders) {
    const why = await linkOne(realRoot, realWorktree, folder)
    if (why !== undefined) notes.push(`worktree.symlinkDirectories: ${folder} was not linked from the main checkout: ${why}.`)
  }
}

async function linkOne(realRoot: string, realWorktree: string, folder: string): Promise<string | undefined> {
  const source = join(realRoot, folder)
  const target = join(realWorktree, folder)
  if (source === realRoot || target === realWorktree || !isInside(source, realRoot) || !isInside(target, realWorktree)) return 'it is not a folder inside the repository'
  try {
    // A folder of the main checkout that is itself a link is linked only when it stays inside it.
    const real = await realpath(source)
    if (!isInside(real, realRoot)) return 'it leads outside the main checkout'
    if (!(await stat(real)).isDirectory()) return 'it is not a folder in the main checkout'
    await mkdir(dirname(target), { recursive: true })
    const parent = await realpath(dirname(target))
    if (!isInside(parent, realWorktree)) return 'its folder in the worktree leads outside the worktree'
    await symlink(relative(parent, source), target, 'dir')
    return undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return 'the main checkout has no such folder'
    return code === 'EEXIST' ? 'the worktree already has something there' : `it could not be linked (${code ?? (error as Error).message})`
  }
}
