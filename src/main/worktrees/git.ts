import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { childEnvironment } from '../base/child-env'

/**
 * Git as worktrees run it. The repository is untrusted input and `git worktree add` checks files
 * out, so every call is hardened as checkpoints' git is: no hooks (a `post-checkout` hook would
 * run on creation), no fsmonitor, no automatic gc, no signing, no bare repository found by
 * discovery, no pager, editor or prompt. Every `GIT_*` variable of the parent is dropped (a
 * `GIT_DIR` from the user's shell must not redirect us). Unlike checkpoints, the user's identity
 * is kept: the merge side commits in a worktree on the user's behalf. Filters and other
 * program-naming keys in the repository's own configuration are checked by the caller
 * (`unsafeKeys`) before anything is checked out.
 */
const HARDENING = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['core.sshCommand', 'false'],
  ['advice.detachedHead', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`])

/** What one git call gave back; never thrown. `missing`: no `git` program on PATH. */
export type GitResult = { ok: true; stdout: string; stderr: string } | { ok: false; error: string; code?: number; missing?: boolean }

/** How to run one call. */
export interface GitCall {
  cwd: string
  /** The environment to start from (the process's); `GIT_*` variables and credentials are dropped. */
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}

/** The hardened environment: the parent's without credentials and without any `GIT_*` variable. */
export function worktreeGitEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(childEnvironment(env))) if (!name.toUpperCase().startsWith('GIT_')) out[name] = value
  return { ...out, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_EDITOR: 'true', LC_ALL: 'C' }
}

/**
 * Runs `git <hardening> <args>` and resolves with its output as text, or why it failed (the first
 * `fatal:` or `error:` line git printed on stderr, else its first). Contract: never rejects.
 */
export function git(args: readonly string[], call: GitCall): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...HARDENING, ...args],
      { cwd: call.cwd, env: worktreeGitEnvironment(call.env ?? process.env), encoding: 'utf8', maxBuffer: 128 * 1024 * 1024, timeout: call.timeoutMs ?? 120_000 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout, stderr })
        const code = (error as { code?: unknown }).code
        // A folder that is gone fails the spawn with ENOENT too: that is not a missing git.
        if (code === 'ENOENT') return resolve(existsSync(call.cwd) ? { ok: false, error: 'git was not found on PATH', missing: true } : { ok: false, error: `the folder ${call.cwd} does not exist` })
        // git's progress lines ("Preparing worktree…") come first on stderr: the error is the fatal: line.
        const lines = stderr.trim().split('\n').filter((line) => line.trim() !== '')
        const said = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0]
        resolve({ ok: false, error: said ?? error.message.split('\n')[0] ?? 'git failed', ...(typeof code === 'number' && { code }) })
      },
    )
  })
}

/** {@link git}'s stdout, trimmed, or a thrown Error naming the command: for sequences that stop at the first failure. */
export async function gitText(args: readonly string[], call: GitCall): Promise<string> {
  const out = await git(args, call)
  if (!out.ok) throw new Error(`git ${args[0]}: ${out.error}`)
  return out.stdout.trim()
}
