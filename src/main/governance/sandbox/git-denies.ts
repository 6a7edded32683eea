import { existsSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { gitLayout } from '../paths/git-layout'
import { readGitConfigFacts } from './git-config-read'
import { isPlaceholder, protect, type PlaceholderScope } from './project-protection'

/**
 * Git's own files, for the sandbox's `denyWrite`: every file by which a sandboxed command could
 * make the user's next `git` (outside the sandbox) run a program or look somewhere else. Computed
 * when each command is wrapped, because a repository can appear, or gain worktrees, between
 * commands (REFERENCE 3.3 caveat 6: the library only protects a `.git` that exists at wrap time).
 *
 * Absent files get a placeholder (see {@link GIT_OWN}; it blocks their creation), except
 * {@link GUARDED}: git refuses to start when `commondir` exists but is empty, and warns on every
 * command about an unreadable `alternates`, so a placeholder would break or clutter every git
 * command while the sandboxed one runs; `GitControlGuard` removes them as they appear instead.
 */
export const GUARDED = ['commondir', 'objects/info/alternates', 'objects/info/http-alternates']

/**
 * What git reads in its folder and runs or loads from: denied whether they exist or not. An absent
 * one gets a placeholder Sous makes (a file for a config, else a folder; git reads an empty config
 * as none, and an empty folder as no hooks or submodules), so that the library never makes a mount
 * point of its own for it: its `/dev/null` mount points live for one command, so a wrap that has
 * one cannot serve the next command (`wrap-cache.ts`), and in most repositories `modules` and
 * `config.worktree` are absent.
 */
const GIT_OWN: ReadonlyArray<readonly [string, boolean]> = [
  ['config', true],
  ['config.worktree', true],
  ['hooks', false],
  ['info', false],
  ['modules', false],
]

/**
 * The denies for the working tree at `root`; `home` is the user's, whose git config can name a
 * hooks path too (a relative one names a folder of every repository).
 */
export function gitWriteDenies(root: string, placeholders?: PlaceholderScope, home = homedir()): string[] {
  const layout = gitLayout(root)
  // Not a repository yet: a sandboxed `git init` plus a hook would run outside the sandbox later.
  // An empty read-only folder stands in for it (never a `/dev/null` file, which git lists as untracked).
  // (A placeholder another running command holds there counts as nothing.)
  if (layout.kind === 'absent' || isPlaceholder(layout.dotGit)) return [...protect(layout.dotGit, true, placeholders), ...hookManagerFiles(root)]
  const denies: string[] = []
  // A linked worktree's or submodule's pointer: rewriting it moves git to a folder of the command's choosing.
  if (layout.kind === 'file') denies.push(layout.dotGit)
  for (const dir of gitFolders(layout)) {
    denies.push(...GIT_OWN.map(([name, file]) => held(join(dir, name), file, placeholders)))
    denies.push(...existing([...GUARDED, 'gitdir'].map((name) => join(dir, name))))
    denies.push(...worktreePointers(dir))
  }
  // Hooks in `core.hooksPath` run on the user's next commit, and a file the config includes is config:
  // each as git reads them (the user's config too, includes followed), an absent hooks folder held.
  const facts = readGitConfigFacts({ root, home, repository: gitFolders(layout).flatMap((dir) => [join(dir, 'config'), join(dir, 'config.worktree')]) })
  denies.push(...facts.hooksPaths.map((path) => held(path, false, placeholders)), ...facts.includes)
  return [...new Set([...denies, ...hookManagerFiles(root)])]
}

/** The folders git reads for this working tree: its git folder and the common one it may name. */
export function gitFolders(layout: ReturnType<typeof gitLayout>): string[] {
  return [...new Set([layout.gitDir, layout.commonDir].filter((dir): dir is string => dir !== undefined))]
}

/** Each linked worktree's `commondir`, `gitdir` and `config.worktree` (`.git/worktrees/<name>/…`). */
function worktreePointers(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(join(dir, 'worktrees'))
  } catch {
    return []
  }
  return existing(names.flatMap((name) => ['commondir', 'gitdir', 'config.worktree'].map((file) => join(dir, 'worktrees', name, file))))
}

/**
 * Hook managers' files: what husky, pre-commit and lefthook run on commit. Only those that
 * exist: a placeholder would make the manager fail on the user's own commits while a command runs.
 */
function hookManagerFiles(root: string): string[] {
  return existing(['.husky', '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook-local.yml', 'lefthook.yaml', '.lefthook'].map((name) => join(root, name)))
}

/** `path`, with a placeholder standing in for it when it is absent (when none can be made, the library makes its own mount point). */
function held(path: string, file: boolean, placeholders: PlaceholderScope | undefined): string {
  if (placeholders && !existsSync(path)) placeholders.hold(path, file)
  return path
}

function existing(paths: string[]): string[] {
  return paths.filter((path) => existsSync(path))
}
