import type { WorktreeInfo, WorktreeOwner } from '../../shared/ipc/worktrees'
import { git, gitText } from './git'
import { shareHooksPath } from './hooks-path'
import { copyWorktreeInclude, type IncludeOutcome } from './include'
import { copyLocalSettings } from './local-settings'
import { newWorktreeFolder } from './location'
import { checkWorktreeName, randomWorktreeName, worktreeBranchName } from './names'
import type { Repository } from './repository'
import type { WorktreeSettings } from './settings'
import { linkSharedDirectories } from './symlinks'

/** What {@link createWorktree} needs. */
export interface CreateWorktreeRequest {
  repository: Repository
  /** The name (`fix/login`); a random `session-…` one when absent. */
  name?: string
  settings: WorktreeSettings
  owner: WorktreeOwner
  sessionId?: string
  agentId?: string
  /** false: not locked here (the caller locks it for the session it starts next). */
  lock?: boolean
  env?: NodeJS.ProcessEnv
}

/** A new worktree and what `.worktreeinclude` did (skips are for a notice, not failures). */
export interface CreatedWorktree {
  info: WorktreeInfo
  include: IncludeOutcome
  /** Said once to the user when the base fell back (`fresh` without an `origin/HEAD`). */
  notes: string[]
}

/** The reason string git keeps on our lock: who holds the worktree (`git worktree list` shows it). */
export function lockReason(owner: WorktreeOwner, sessionId?: string, agentId?: string): string {
  return `sous ${owner}${sessionId ? ` ${sessionId}` : ''}${agentId ? ` agent ${agentId}` : ''}`
}

/**
 * Makes a worktree as Claude Code lays it out: `<root>/.claude/worktrees/<name>` on a new branch
 * `worktree-<name>`, from the current HEAD (`worktree.baseRef: "head"`) or from `origin/<default>`
 * (`"fresh"`, Claude Code's default; HEAD when the repository has no `origin/HEAD`), checked out
 * sparsely when `worktree.sparsePaths` is set, then `.worktreeinclude`'s files and the user's
 * `.claude/settings.local.json` copied in, and `worktree.symlinkDirectories` linked; a relative
 * `core.hooksPath` is pointed at the main checkout's folder (see hooks-path.ts). It is
 * locked at once with the owner's session id as git's reason, which is how two sessions never
 * share one: a worktree locked for another session is never entered or removed. A name whose
 * folder or branch exists is refused (never reused: it may hold another session's work).
 * Anything that fails after `git worktree add` is rolled back. Throws an Error with the sentence
 * to show; the caller has checked git and the repository's configuration.
 */
export async function createWorktree(request: CreateWorktreeRequest): Promise<CreatedWorktree> {
  const { repository, settings, env } = request
  const call = { cwd: repository.root, ...(env && { env }) }
  const name = request.name ?? randomWorktreeName()
  const branch = worktreeBranchName(name)
  const notes: string[] = []
  // Independent git runs, side by side (each is a process start): the name's check, whether the
  // branch exists, the base. Their verdicts are read in that order.
  const [problem, branchExists, base] = await Promise.all([
    checkWorktreeName(name, repository.root, env),
    git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], call).then((out) => out.ok),
    resolveBase(repository, settings.baseRef, env, notes).then((value) => ({ value }), (error: unknown) => ({ error })),
  ])
  if (problem) throw new Error(problem)
  if (branchExists) throw new Error(`A branch named ${branch} already exists: choose another worktree name (it may hold another session's work).`)
  if ('error' in base) throw base.error
  const path = await newWorktreeFolder(repository.root, name)
  const sparse = settings.sparsePaths !== undefined && settings.sparsePaths.length > 0
  const added = await git(['worktree', 'add', ...(sparse ? ['--no-checkout'] : []), '-b', branch, '--', path, base.value.commit], call)
  if (!added.ok) throw new Error(`git could not make the worktree: ${added.error}`)
  try {
    const inTree = { cwd: path, ...(env && { env }) }
    if (request.lock !== false) await gitText(['worktree', 'lock', '--reason', lockReason(request.owner, request.sessionId, request.agentId), '--', path], call)
    if (sparse) {
      await gitText(['sparse-checkout', 'init', '--cone'], inTree)
      await gitText(['sparse-checkout', 'set', '--', ...settings.sparsePaths!], inTree)
      // `--no-checkout` left the index empty: fill it and the tree within the sparse cone.
      await gitText(['read-tree', '-mu', 'HEAD'], inTree)
    }
    // Side by side: one writes the shared config, the other files of the worktree.
    const [include] = await Promise.all([copyWorktreeInclude(repository.root, path, env), shareHooksPath(repository, path, env)])
    // After .worktreeinclude, which may name it too (then the copy it made stays).
    await copyLocalSettings(repository.root, path, include)
    if (settings.symlinkDirectories) await linkSharedDirectories(repository.root, path, settings.symlinkDirectories, notes)
    include.copied.sort()
    const info: WorktreeInfo = {
      name,
      path,
      branch,
      repoRoot: repository.root,
      baseCommit: base.value.commit,
      ...(base.value.branch && { baseBranch: base.value.branch }),
      baseRef: base.value.ref,
      ...(request.sessionId && { sessionId: request.sessionId }),
      ...(request.agentId && { agentId: request.agentId }),
      owner: request.owner,
      createdAt: new Date().toISOString(),
      ...(sparse && { sparsePaths: settings.sparsePaths }),
      ...(include.copied.length > 0 && { copied: include.copied }),
    }
    return { info, include, notes }
  } catch (error) {
    await git(['worktree', 'unlock', '--', path], call)
    await git(['worktree', 'remove', '--force', '--', path], call)
    await git(['branch', '-D', '--', branch], call)
    throw new Error(`The worktree could not be set up, and was removed again: ${(error as Error).message}`)
  }
}

/** The commit a new worktree starts from, and the branch it is on (for "merged into the base"). */
async function resolveBase(repository: Repository, baseRef: WorktreeSettings['baseRef'], env: NodeJS.ProcessEnv | undefined, notes: string[]): Promise<{ commit: string; ref: string; branch?: string }> {
  const call = { cwd: repository.top, ...(env && { env }) }
  if (baseRef === 'fresh') {
    const remoteHead = await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], call)
    const ref = remoteHead.ok ? remoteHead.stdout.trim() : ''
    const commit = ref && (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], call))
    if (commit && commit.ok) return { commit: commit.stdout.trim(), ref: ref.replace(/^refs\/remotes\//, ''), branch: ref.replace(/^refs\/remotes\/origin\//, '') }
    notes.push('The repository has no origin/HEAD, so the worktree starts from the current HEAD (worktree.baseRef "fresh" needs a fetched origin).')
  }
  const [head, branch] = await Promise.all([git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], call), git(['symbolic-ref', '--quiet', '--short', 'HEAD'], call)])
  if (!head.ok) throw new Error('The repository has no commit yet: make a first commit, then start a worktree session.')
  return { commit: head.stdout.trim(), ref: 'HEAD', ...(branch.ok && branch.stdout.trim() && { branch: branch.stdout.trim() }) }
}
