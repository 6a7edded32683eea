import { realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, resolve } from 'node:path'
import { outsideAnyRepository } from '../base/git-discovery'
import { SAFE_KEYS, SAFE_WITH_ENVIRONMENT, unsafeKeys } from '../base/git-safety'
import { git } from './git'

/** The repository a folder belongs to, as worktrees need it. */
export interface Repository {
  /** The main working tree (where `.claude/worktrees` lives), real path. */
  root: string
  /** The folder asked about, real path (the main working tree or one of its worktrees). */
  top: string
  /** The shared git folder (`<root>/.git`). */
  commonDir: string
}

/** What {@link findRepository} answers. */
export type RepositoryLookup = { ok: true; repository: Repository } | { ok: false; reason: 'not-a-repository' | 'git-missing' | 'bare'; message: string }

/**
 * The repository of `folder`: its main working tree (worktrees always go under the main one,
 * as Claude Code's do, even when asked from inside a worktree), its shared git folder. A folder
 * outside any repository answers `not-a-repository` (worktrees are unavailable; sessions run as
 * today). Contract: never rejects.
 */
export async function findRepository(folder: string, env?: NodeJS.ProcessEnv): Promise<RepositoryLookup> {
  // No `.git` anywhere above: git would say the same, ~20 ms later (base/git-discovery.ts).
  if (await outsideAnyRepository(folder, env ?? process.env)) return { ok: false, reason: 'not-a-repository', message: notARepository(folder) }
  const out = await git(['rev-parse', '--show-toplevel', '--git-common-dir', '--is-bare-repository'], { cwd: folder, ...(env && { env }) })
  if (!out.ok) {
    if (out.missing) return { ok: false, reason: 'git-missing', message: 'Worktrees need git, and no git program was found on PATH.' }
    return { ok: false, reason: 'not-a-repository', message: notARepository(folder) }
  }
  const [top, common, bare] = out.stdout.split('\n').map((line) => line.trim())
  if (bare === 'true' || !top || !common) return { ok: false, reason: 'bare', message: `${folder} is in a bare git repository: worktrees need a working tree to start from.` }
  const commonDir = await realpath(isAbsolute(common) ? common : resolve(folder, common)).catch(() => resolve(folder, common))
  const realTop = await realpath(top).catch(() => top)
  // The main working tree is the folder that holds the shared git folder (`<root>/.git`); a
  // repository whose git folder lives elsewhere (`--separate-git-dir`) keeps its toplevel.
  const root = basename(commonDir) === '.git' ? dirname(commonDir) : realTop
  return { ok: true, repository: { root, top: realTop, commonDir } }
}

/**
 * The repository's own configuration keys that name programs git could run while checking files
 * out (filters, drivers, includes…): creating a worktree is refused while any is set, since a
 * repository is untrusted and `git worktree add` would run them. Contract: never rejects; a
 * listing git cannot give counts as no keys (git itself then fails the next step).
 */
export async function unsafeRepositoryKeys(repository: Repository, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const out = await git(['config', '--list', '--show-scope', '--null'], { cwd: repository.root, ...(env && { env }) })
  // Keys our hardening overrides (hooksPath, fsmonitor…) are harmless here too.
  return out.ok ? unsafeKeys(out.stdout, [...SAFE_KEYS, ...SAFE_WITH_ENVIRONMENT]) : []
}

function notARepository(folder: string): string {
  return `${folder} is not in a git repository, so sessions here cannot have worktrees; they run in the folder itself.`
}
