import { execFile } from 'node:child_process'
import { AppError } from '../../../shared/ipc/result'
import { childEnvironment } from '../../base/child-env'
import { git } from './git'

/** Whether "Open PR" can work here, and why not. */
export type PrAvailability = { available: true } | { available: false; reason: string }

/** Runs `gh` with the child environment (Sous's own credentials held back; gh uses its own login). */
function gh(args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<{ ok: boolean; stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile('gh', args, { cwd, env: { ...childEnvironment(env ?? process.env), GH_PROMPT_DISABLED: '1', NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ ok: !error, stdout, stderr, missing: (error as NodeJS.ErrnoException | null)?.code === 'ENOENT' })
    })
  })
}

/**
 * Whether a pull request can be opened from this worktree: the GitHub CLI installed and signed in,
 * and a remote named `origin`. Optional, never required: the view hides the button's action and
 * says the reason. Contract: never rejects.
 */
export async function prAvailability(worktree: string, env?: NodeJS.ProcessEnv): Promise<PrAvailability> {
  const version = await gh(['--version'], worktree, env)
  if (version.missing) return { available: false, reason: 'Open PR needs the GitHub CLI (gh), which is not installed.' }
  const auth = await gh(['auth', 'status'], worktree, env)
  if (!auth.ok) return { available: false, reason: 'The GitHub CLI is not signed in (run gh auth login).' }
  const remote = await git(['remote', 'get-url', 'origin'], { cwd: worktree, ...(env && { env }) })
  if (!remote.ok) return { available: false, reason: 'This repository has no remote named origin.' }
  return { available: true }
}

/** Pushes the worktree's branch to origin and opens a pull request for it with `gh pr create`; answers its address. */
export async function openPullRequest(worktree: string, branch: string, pr: { title: string; body: string }, env?: NodeJS.ProcessEnv): Promise<{ url: string }> {
  const availability = await prAvailability(worktree, env)
  if (!availability.available) throw new AppError('UNAVAILABLE', availability.reason)
  const pushed = await git(['push', '-u', 'origin', branch], { cwd: worktree, timeoutMs: 120_000, ...(env && { env }) })
  if (!pushed.ok) throw new AppError('CONFLICT', `git push: ${pushed.error}`)
  const created = await gh(['pr', 'create', '--head', branch, '--title', pr.title, '--body', pr.body], worktree, env)
  if (!created.ok) throw new AppError('CONFLICT', `gh pr create: ${created.stderr.trim().split('\n')[0] ?? 'failed'}`)
  return { url: created.stdout.trim().split('\n').pop() ?? '' }
}
