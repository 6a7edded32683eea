import { lstatSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { gitLayout } from '../paths/git-layout'

/**
 * What git writes outside a linked worktree when it works there: the worktree's own git folder
 * (`<common>/worktrees/<name>`: its index, HEAD, logs) and the shared objects, refs and reflogs.
 * Without them a sandboxed `git add` or `git commit` in a worktree session fails ("Unable to
 * create …/index.lock: Read-only file system"), while the same command works in the base, whose
 * `.git` lies inside the project. The rest of the shared folder stays read-only (its config,
 * hooks, the other worktrees' folders), and `git-denies.ts` protects git's control files inside
 * what this opens, as it does in the base.
 *
 * A repository is untrusted input, and its `.git` file names the folder: only a folder git itself
 * made for this worktree is opened — its `gitdir` file points back at this `.git`, it sits in the
 * `worktrees` folder of the shared folder its `commondir` names, and that one holds objects and
 * refs, each a folder and not a link. A `.git` file naming anything else opens nothing. The paths
 * come back real. Contract: never throws.
 */
export function linkedWorktreeGitDirs(root: string): string[] {
  const layout = gitLayout(root)
  if (layout.kind !== 'file' || !layout.gitDir || !layout.commonDir) return []
  const { gitDir, commonDir } = layout
  const real = (path: string) => {
    try {
      return realpathSync(path)
    } catch {
      return undefined
    }
  }
  const backPointer = pointerIn(join(gitDir, 'gitdir'), gitDir)
  if (backPointer === undefined || real(backPointer) !== real(layout.dotGit)) return []
  const common = real(commonDir)
  const own = real(gitDir)
  if (common === undefined || own === undefined || real(dirname(gitDir)) !== join(common, 'worktrees')) return []
  // Folders themselves, never links: a link put in place of `refs` would open wherever it leads.
  const opened = [own, ...['objects', 'refs', 'logs'].map((name) => join(common, name))].filter(isFolder)
  return opened.includes(join(common, 'objects')) && opened.includes(join(common, 'refs')) && opened[0] === own ? opened : []
}

/** The path a one-line git file holds, resolved against `base`. */
function pointerIn(file: string, base: string): string | undefined {
  try {
    const line = readFileSync(file, 'utf8').slice(0, 4096).split('\n')[0]?.trim()
    if (!line) return undefined
    return isAbsolute(line) ? resolve(line) : resolve(base, line)
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
