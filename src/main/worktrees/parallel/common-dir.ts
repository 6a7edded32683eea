import { lstat, readFile, realpath } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { git } from '../merge/git'

/**
 * The repository a checkout belongs to: its common git folder, real path; undefined when it is
 * none. Read from the files git itself reads — `<checkout>/.git` (a folder, or a `gitdir:` file
 * for a linked worktree) and that git folder's `commondir` — so the compare view's first paint
 * spawns no process per session for it; git answers (`rev-parse --git-common-dir`) only where
 * the files say something else. Contract: never rejects.
 */
export async function commonDirOf(checkout: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const dotGit = join(checkout, '.git')
    const stat = await lstat(dotGit)
    if (stat.isDirectory()) return await realpath(dotGit)
    if (stat.isFile()) {
      const line = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1]?.trim()
      if (line) {
        const gitDir = isAbsolute(line) ? line : resolve(checkout, line)
        const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined))?.trim()
        return await realpath(common === undefined ? gitDir : isAbsolute(common) ? common : resolve(gitDir, common))
      }
    }
  } catch {
    // Fall through to git.
  }
  const out = await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: checkout, ...(env && { env }) })
  return out.ok ? realpath(out.stdout.trim()).catch(() => undefined) : undefined
}
