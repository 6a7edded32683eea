import { lstatSync, realpathSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gitLayout, pointer } from '../paths/git-layout'
import { configValues } from './git-config-read'

/**
 * What git writes outside a linked worktree when it works there: the worktree's own git folder
 * (`<common>/worktrees/<name>`: its index, HEAD, logs) and the shared objects, refs and reflogs;
 * for a submodule's checkout, its git folder in the superproject (`.git/modules/<name>`).
 * Without them a sandboxed `git add` or `git commit` in a worktree session fails ("Unable to
 * create …/index.lock: Read-only file system"), while the same command works in the base, whose
 * `.git` lies inside the project. The rest of the shared folder stays read-only (its config,
 * hooks, the other worktrees' folders), and `git-denies.ts` protects git's control files inside
 * what this opens, as it does in the base.
 *
 * A repository is untrusted input, and its `.git` file names the folder: only a folder git itself
 * made for this worktree is opened — its `gitdir` file points back at this `.git`, it sits in the
 * `worktrees` folder of the shared folder its `commondir` names, and that one holds objects and
 * refs, each a folder and not a link; a submodule's folder must name this checkout as its
 * `core.worktree`. A `.git` file naming anything else opens nothing. The paths
 * come back real. Contract: never throws.
 */
export function linkedWorktreeGitDirs(root: string): string[] {
  const layout = gitLayout(root)
  if (layout.kind !== 'file' || !layout.gitDir) return []
  const { gitDir } = layout
  // The folder itself, never a link to one (nor `objects`, `refs`, `logs` below): a link would open wherever it leads.
  const own = isFolder(gitDir) ? real(gitDir) : undefined
  if (own === undefined) return []
  if (!layout.commonDir) return submoduleGitDir(root, own)
  const backPointer = pointer(join(gitDir, 'gitdir'), /^(.+)$/m, gitDir)
  if (backPointer === undefined || real(backPointer) !== real(layout.dotGit)) return []
  const common = real(layout.commonDir)
  if (common === undefined || real(dirname(gitDir)) !== join(common, 'worktrees')) return []
  const shared = ['objects', 'refs', 'logs'].map((name) => join(common, name)).filter(isFolder)
  return shared.includes(join(common, 'objects')) && shared.includes(join(common, 'refs')) ? [own, ...shared] : []
}

/**
 * A submodule's git folder (`<superproject>/.git/modules/<name>`, which holds its own objects and
 * refs), when git made it for this checkout: its config's `core.worktree` leads back here.
 */
function submoduleGitDir(root: string, own: string): string[] {
  const worktrees = configValues(join(own, 'config'), 'core', 'worktree')
  if (worktrees.length !== 1 || real(resolve(own, worktrees[0]!)) !== real(root)) return []
  return isFolder(join(own, 'objects')) && isFolder(join(own, 'refs')) ? [own] : []
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

/** A folder itself (not a link to one). */
function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}
