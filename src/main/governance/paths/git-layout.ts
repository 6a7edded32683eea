import { readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

/**
 * Where git keeps a working tree's metadata. In a plain repository `.git` is a folder; in a
 * linked worktree or a submodule it is a file (`gitdir: <path>`) pointing at the real git folder,
 * which may in turn name a shared one in its `commondir` file. Every one of these holds files
 * that make git run programs (`config`, `hooks/`) or look elsewhere (`commondir`, `gitdir`).
 */
export interface GitLayout {
  /** `<root>/.git`. */
  dotGit: string
  kind: 'directory' | 'file' | 'absent'
  /** The folder git uses for this working tree (`.git` itself, or where the `.git` file points). */
  gitDir?: string
  /** The shared folder a linked worktree's `commondir` names. */
  commonDir?: string
}

/** Reads the layout of the repository rooted at `root`. Contract: never throws; what cannot be read is left out. */
export function gitLayout(root: string): GitLayout {
  const dotGit = join(root, '.git')
  let kind: GitLayout['kind']
  try {
    kind = statSync(dotGit).isDirectory() ? 'directory' : 'file'
  } catch {
    return { dotGit, kind: 'absent' }
  }
  const gitDir = kind === 'directory' ? dotGit : pointer(dotGit, /^gitdir:\s*(.+)$/m, root)
  const commonDir = gitDir === undefined ? undefined : pointer(join(gitDir, 'commondir'), /^(.+)$/m, gitDir)
  return { dotGit, kind, ...(gitDir ? { gitDir } : {}), ...(commonDir ? { commonDir } : {}) }
}

/** A path stored in a small git file (`pattern`'s first group), resolved against `base`. */
export function pointer(file: string, pattern: RegExp, base: string): string | undefined {
  try {
    const match = pattern.exec(readFileSync(file, 'utf8').slice(0, 4096))
    const path = match?.[1]?.trim()
    if (!path) return undefined
    return isAbsolute(path) ? resolve(path) : resolve(base, path)
  } catch {
    return undefined
  }
}
