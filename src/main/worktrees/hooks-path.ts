import { isAbsolute, join, resolve } from 'node:path'
import { git, gitText } from './git'
import type { Repository } from './repository'

/**
 * Points a new worktree at the main checkout's hooks, as Claude Code does: a relative
 * `core.hooksPath` in the repository's config (husky's `.husky/_`, which `husky install` generates
 * and git ignores) would name a folder of the worktree, which a fresh checkout does not have, so
 * the user's commits there would skip the project's hooks. It is set to the same folder made
 * absolute from the main checkout (the shared config: the main checkout reads the same folder as
 * before). Nothing runs here; hooks run later, on the user's own git commands, as in the main
 * checkout. An absolute path, or none, is left alone. Throws when git cannot write the config.
 */
export async function shareHooksPath(repository: Repository, worktree: string, env?: NodeJS.ProcessEnv): Promise<void> {
  const call = { cwd: worktree, ...(env && { env }) }
  // The repository's own file only, as git itself reads it (quotes, comments): the hardening's
  // `-c core.hooksPath=/dev/null` does not reach a `--file` read.
  const read = await git(['config', '--file', join(repository.commonDir, 'config'), '--get', 'core.hooksPath'], call)
  const value = read.ok ? read.stdout.trim() : ''
  if (!value || isAbsolute(value) || value.startsWith('~')) return
  await gitText(['config', 'core.hooksPath', resolve(repository.root, value)], call)
}
