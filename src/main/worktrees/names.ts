import { randomBytes } from 'node:crypto'
import { worktreeNameShapeProblem } from '../../shared/ipc/worktree-info'
import { git } from './git'

/** A name's folder under `.claude/worktrees` (Claude Code's: `/` becomes `+`, so the folder is one level). */
export function worktreeFolderName(name: string): string {
  return name.replaceAll('/', '+')
}

/** A name's branch, as Claude Code names it: `worktree-<folder name>`. */
export function worktreeBranchName(name: string): string {
  return `worktree-${worktreeFolderName(name)}`
}

/** A fresh name when none is given (`-w` alone, EnterWorktree without `name`). */
export function randomWorktreeName(prefix = 'session'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`
}

/** A subagent's worktree name (Claude Code's `agent-<id>` shape, cut to the 64-character limit). */
export function agentWorktreeName(agentId: string): string {
  const id = agentId.replace(/[^A-Za-z0-9._-]/g, '').replace(/^agent-/, '')
  return `agent-${id.slice(0, 57)}`
}

/**
 * Why `name` cannot name a worktree, or undefined when it can: its shape (see
 * {@link worktreeNameShapeProblem}: Claude Code's shape, no `.`/`..` segment, no segment git forbids),
 * then git's own verdict on the branch (`git check-ref-format --branch`), so nothing git
 * would refuse, or read as an option or a revision, gets as far as `git worktree add`.
 * Contract: never rejects.
 */
export async function checkWorktreeName(name: string, cwd: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  const shape = worktreeNameShapeProblem(name)
  if (shape) return shape
  const branch = worktreeBranchName(name)
  const verdict = await git(['check-ref-format', '--branch', branch], { cwd, ...(env && { env }) })
  if (!verdict.ok) return verdict.missing ? 'git was not found on PATH' : `"${name}" is not a worktree name: git does not accept the branch name ${branch}.`
  return undefined
}
