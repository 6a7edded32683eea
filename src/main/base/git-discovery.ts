import { lstat, realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/**
 * Variables that point git at a repository without discovery: with any of them set, only git can
 * say. (The checkpoint store drops `GIT_*` for its own runs, but the worktree and prompt readers
 * pass the environment on; being cautious costs one git run, never a wrong answer.)
 */
const DIRECTING = ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_WORK_TREE']

/**
 * True only when `folder` is certainly outside every git repository, told from the file system
 * without running git: neither it nor any folder above it (its real path, as git walks the
 * physical working directory) holds a `.git` entry (a folder, a worktree's file, a link) or a
 * `HEAD` (a bare repository, which git finds only when asked, but cheap to be cautious about),
 * and no variable points git elsewhere. Anything else answers false, and the caller asks git as
 * before. Why: a cold `sous -p` outside a repository ran three `git rev-parse` calls before its
 * first request (the worktree lookup, the prompt's git status, the checkpoint store), ~20 ms each
 * (docs/design/startup.md). Contract: never rejects; an error answers false.
 */
export async function outsideAnyRepository(folder: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (DIRECTING.some((name) => env[name] !== undefined)) return false
  try {
    let dir = await realpath(folder)
    for (;;) {
      if (await exists(join(dir, '.git'))) return false
      if (await exists(join(dir, 'HEAD'))) return false
      const parent = dirname(dir)
      if (parent === dir) return true
      dir = parent
    }
  } catch {
    return false
  }
}

/** Whether anything is at `path` (a dangling link counts); an error other than "not there" throws. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}
