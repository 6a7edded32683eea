import { realpath } from 'node:fs/promises'
import { git } from './git'

/** One entry of `git worktree list --porcelain`. */
export interface GitWorktreeEntry {
  path: string
  head: string
  /** Short branch name; absent when detached. */
  branch?: string
  /** git's lock reason ('' when locked without one). */
  locked?: string
  prunable?: boolean
}

/**
 * The repository's worktrees as git lists them (the main checkout first), paths made real where
 * they still exist so they compare with the registry's. Contract: never rejects; empty when git fails.
 */
export async function listGitWorktrees(root: string, env?: NodeJS.ProcessEnv): Promise<GitWorktreeEntry[]> {
  const out = await git(['worktree', 'list', '--porcelain'], { cwd: root, ...(env && { env }) })
  if (!out.ok) return []
  const entries: GitWorktreeEntry[] = []
  for (const block of out.stdout.split('\n\n')) {
    const entry: Partial<GitWorktreeEntry> = {}
    for (const line of block.split('\n')) {
      const space = line.indexOf(' ')
      const key = space < 0 ? line : line.slice(0, space)
      const value = space < 0 ? '' : line.slice(space + 1)
      if (key === 'worktree') entry.path = value
      else if (key === 'HEAD') entry.head = value
      else if (key === 'branch') entry.branch = value.replace(/^refs\/heads\//, '')
      else if (key === 'locked') entry.locked = value
      else if (key === 'prunable') entry.prunable = true
    }
    if (entry.path) entries.push({ head: '', ...entry, path: await realpath(entry.path).catch(() => entry.path!) } as GitWorktreeEntry)
  }
  return entries
}
