import { execFile } from 'node:child_process'
import { childEnvironment } from '../base/child-env'
import { outsideAnyRepository } from '../base/git-discovery'
import { safeGitEnvironment, unsafeKeys } from '../base/git-safety'

export { unsafeKeys } from '../base/git-safety'

/**
 * Git facts for the dynamic part of the system prompt, captured once per session: the branch,
 * the main branch (for pull requests), a short status (capped) and the latest commits.
 *
 * A repository is untrusted input, and git runs programs its own configuration names: a
 * `core.fsmonitor` hook on `git status`, a clean filter for files an attribute marks, a
 * `gpg.program` for signed commits in `git log`. So before anything else the repository's own
 * configuration (local and worktree scopes) is read, and git status runs only when every key in it
 * is on a short allowlist of keys that name no program (`base/git-safety.ts`); otherwise the prompt
 * says why it is missing. Every run also gets the safe-key environment (fsmonitor and hooks off,
 * no implicit bare repositories). The user's own (global, system) configuration is theirs and is trusted.
 */
export interface GitStatus {
  branch: string
  /** The branch pull requests usually target (`origin/HEAD`, else a local main or master). */
  mainBranch?: string
  /** `git status --short`, capped. */
  status: string
  /** `git log --oneline` of the latest commits. */
  recentCommits: string
}

/** What {@link readGitStatus} found: the facts, or why there are none. */
export type GitReading = { kind: 'status'; status: GitStatus } | { kind: 'not_a_repository' } | { kind: 'skipped'; reason: string }

/** Characters of `git status --short` kept in the prompt. */
export const MAX_STATUS_CHARS = 2_000
const RECENT_COMMITS = 5
const TIMEOUT_MS = 3_000

/** Reads the git facts of `cwd`; never throws (git missing, a timeout, an odd repository: a reason). */
export async function readGitStatus(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<GitReading> {
  // No `.git` anywhere above: git would say the same, ~20 ms later (base/git-discovery.ts).
  if (await outsideAnyRepository(cwd, env)) return { kind: 'not_a_repository' }
  const run = (args: string[]) => git(args, cwd, env)
  const inside = await run(['rev-parse', '--is-inside-work-tree'])
  if (!inside.ok && inside.missing) return { kind: 'skipped', reason: 'git is not installed' }
  if (!inside.ok || inside.stdout.trim() !== 'true') return { kind: 'not_a_repository' }
  const config = await run(['config', '--list', '--show-scope', '--null'])
  if (!config.ok) return { kind: 'skipped', reason: `the repository's configuration could not be read (${config.error})` }
  const unsafe = unsafeKeys(config.stdout)
  if (unsafe.length > 0) return { kind: 'skipped', reason: `the repository's own configuration sets ${unsafe.slice(0, 3).join(', ')}${unsafe.length > 3 ? '…' : ''}, which can make git run programs` }
  const [branch, origin, status, log] = await Promise.all([
    run(['rev-parse', '--abbrev-ref', 'HEAD']),
    run(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']),
    run(['--no-optional-locks', 'status', '--short', '--branch', '--untracked-files=normal']),
    run(['log', '--oneline', '--no-decorate', '--no-show-signature', `-n${RECENT_COMMITS}`]),
  ])
  if (!status.ok) return { kind: 'skipped', reason: `git status failed (${status.error})` }
  const mainBranch = origin.ok && origin.stdout.trim() ? origin.stdout.trim().replace(/^origin\//, '') : await localMain(run)
  return {
    kind: 'status',
    status: {
      branch: branch.ok ? branch.stdout.trim() : '(unknown)',
      ...(mainBranch && { mainBranch }),
      status: capStatus(status.stdout.split('\n').filter((line) => line && !line.startsWith('##')).join('\n')),
      recentCommits: log.ok ? log.stdout.trim() : '',
    },
  }
}

/** Renders the facts for the dynamic prompt. */
export function renderGitStatus(reading: GitReading): string {
  if (reading.kind === 'not_a_repository') return ''
  if (reading.kind === 'skipped') return `# Git status\nNot read: ${reading.reason}.`
  const { branch, mainBranch, status, recentCommits } = reading.status
  return [
    '# Git status',
    'This is the git status at the start of the session; it does not update as the conversation goes on.',
    `Current branch: ${branch}`,
    mainBranch ? `Main branch (usually the target of pull requests): ${mainBranch}` : '',
    `Status:\n${status || '(clean)'}`,
    recentCommits ? `Recent commits:\n${recentCommits}` : '',
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** The status lines within the cap, with a note of how many were left out. */
export function capStatus(status: string): string {
  if (status.length <= MAX_STATUS_CHARS) return status
  const lines = status.split('\n')
  const kept: string[] = []
  let used = 0
  for (const line of lines) {
    if (used + line.length + 1 > MAX_STATUS_CHARS) break
    kept.push(line)
    used += line.length + 1
  }
  return `${kept.join('\n')}\n… (${lines.length - kept.length} more entries; run git status for the rest)`
}

async function localMain(run: (args: string[]) => Promise<GitRun>): Promise<string | undefined> {
  for (const name of ['main', 'master']) {
    const found = await run(['rev-parse', '--verify', '--quiet', `refs/heads/${name}`])
    if (found.ok && found.stdout.trim()) return name
  }
  return undefined
}

type GitRun = { ok: true; stdout: string } | { ok: false; error: string; missing?: boolean; stdout?: undefined }

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      // No pager, no prompt for credentials, no locks taken in the user's repository.
      { cwd, timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, env: { ...childEnvironment(env), ...safeGitEnvironment(env), GIT_OPTIONAL_LOCKS: '0', PAGER: 'cat', LC_ALL: 'C' } },
      (error, stdout) => {
        if (!error) return resolve({ ok: true, stdout })
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
        resolve({ ok: false, error: error.message.split('\n')[0] ?? 'failed', ...(missing && { missing }) })
      },
    )
  })
}
