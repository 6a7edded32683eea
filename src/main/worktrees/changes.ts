import type { WorktreeInfo, WorktreeLoss } from '../../shared/ipc/worktrees'
import { git } from './git'

/** At most this many commits are listed by name (the count is always whole). */
const LISTED_COMMITS = 50

/**
 * What removing a worktree would lose: files git status shows in it (staged, unstaged, untracked;
 * ignored files are not counted, as Claude Code's ExitWorktree does not), and commits on its branch
 * that the base does not hold — not reachable from the base branch (as it is now, so work merged
 * into it counts as kept) or, without one, from the commit the worktree started at.
 * Contract: never rejects; a worktree git cannot read is reported as a loss one cannot see into,
 * so nothing is removed on a guess.
 */
export async function worktreeLoss(info: LossSubject, env?: NodeJS.ProcessEnv, options: { folderGone?: boolean } = {}): Promise<WorktreeLoss> {
  const inTree = { cwd: info.path, ...(env && { env }) }
  // A worktree whose folder is gone has only its branch left to lose.
  const status = options.folderGone ? { ok: true as const, stdout: '' } : await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], inTree)
  const uncommitted = status.ok ? statusPaths(status.stdout) : []
  const base = await baseRefOf(info, env)
  const hasBranch = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${info.branch}`], { cwd: info.repoRoot, ...(env && { env }) })).ok
  const log = !hasBranch ? { ok: true as const, stdout: '' } : await git(['log', '--format=%H%x00%s', `${base}..refs/heads/${info.branch}`, '--'], { cwd: info.repoRoot, ...(env && { env }) })
  const commits = log.ok ? log.stdout.split('\n').filter(Boolean).map((line) => ({ sha: line.split('\0')[0]!, subject: line.split('\0')[1] ?? '' })) : []
  const unreadable = [!status.ok && `git status failed in the worktree (${status.error})`, !log.ok && `its branch could not be compared with the base (${log.error})`].filter(Boolean) as string[]
  return { uncommitted, commits: commits.slice(0, LISTED_COMMITS), summary: lossSummary(uncommitted.length, commits.length, info.branch, unreadable) }
}

/** What a loss is computed from. */
export type LossSubject = Pick<WorktreeInfo, 'path' | 'branch' | 'baseCommit' | 'baseBranch' | 'repoRoot'>

/** Whether a loss holds anything (or could not be read). */
export function losesWork(loss: WorktreeLoss): boolean {
  return loss.uncommitted.length > 0 || loss.commits.length > 0 || loss.summary.includes('could not')
}

/** The base the branch is compared with: the base branch if it still exists, else the starting commit. */
async function baseRefOf(info: LossSubject, env?: NodeJS.ProcessEnv): Promise<string> {
  if (info.baseBranch) {
    const exists = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${info.baseBranch}^{commit}`], { cwd: info.repoRoot, ...(env && { env }) })
    if (exists.ok) return `refs/heads/${info.baseBranch}`
  }
  return info.baseCommit
}

/** The paths of `git status --porcelain=v1 -z` (a rename's second path is its origin, skipped). */
function statusPaths(out: string): string[] {
  const fields = out.split('\0')
  const paths: string[] = []
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!
    if (field.length < 4) continue
    paths.push(field.slice(3))
    if (field[0] === 'R' || field[0] === 'C') i++
  }
  return paths
}

/** "2 uncommitted files and 1 commit on worktree-foo" (Claude Code's ExitWorktree words), or "nothing". */
function lossSummary(files: number, commits: number, branch: string, unreadable: string[]): string {
  const parts: string[] = []
  if (files > 0) parts.push(`${files} uncommitted ${files === 1 ? 'file' : 'files'}`)
  if (commits > 0) parts.push(`${commits} ${commits === 1 ? 'commit' : 'commits'} on ${branch} not in the base`)
  parts.push(...unreadable.map((why) => `work that could not be checked: ${why}`))
  return parts.length === 0 ? 'nothing' : parts.join(' and ')
}
