import { execFile } from 'node:child_process'
import { childEnvironment } from '../../base/child-env'
import { safeGitEnvironment } from '../../base/git-safety'

/**
 * Git as the parallel-sessions engine runs it, in the base checkout and in the sessions'
 * worktrees. A repository is untrusted input: every call neutralises what its configuration could
 * make git run (fsmonitor, hooks, a bare repository found by discovery, signing, pagers, prompts;
 * see `base/git-safety.ts`), diffs never use external drivers or text conversion, and every
 * `GIT_*` variable of the parent is dropped so a `GIT_DIR` from the user's shell cannot redirect a
 * call into another repository. Failures are values, never thrown.
 */

/** Extra hardening beyond {@link safeGitEnvironment}: no automatic gc, no signing of our merges and commits. */
const HARDENING = [
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['core.untrackedCache', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`])

/** What one git call gave back. */
export type GitResult = { ok: true; stdout: string; stderr: string; code: number } | { ok: false; stdout: string; stderr: string; code: number | null; error: string; missing?: boolean }

/** How to run one call. */
export interface GitOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  input?: string
  timeoutMs?: number
  /** Exit codes that are answers, not failures (`git merge-file` exits with the number of conflicts). */
  okCodes?: readonly number[]
}

/** The environment of one call: the parent's without credentials and `GIT_*`, plus the neutralising keys. */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(childEnvironment(env))) if (!name.toUpperCase().startsWith('GIT_')) out[name] = value
  return { ...out, ...safeGitEnvironment(), LC_ALL: 'C' }
}

/** Runs `git <hardening> <args>`. Contract: never rejects. */
export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      [...HARDENING, ...args],
      { cwd: options.cwd, env: gitEnv(options.env), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        const raw = (error as { code?: unknown } | null)?.code
        const code = !error ? 0 : typeof raw === 'number' ? raw : null
        if (!error || (code !== null && options.okCodes?.includes(code))) return resolve({ ok: true, stdout, stderr, code: code ?? 0 })
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
        const said = stderr.trim().split('\n').find((line) => line.trim()) ?? ''
        resolve({ ok: false, stdout, stderr, code, error: missing ? 'git is not installed (or not on PATH).' : said || error.message.split('\n')[0] || 'git failed', ...(missing && { missing }) })
      },
    )
    // A git that exits before reading its input must not crash us with EPIPE.
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(options.input ?? '')
  })
}

/** {@link git}'s output, trimmed; throws an Error naming the command when it fails (for steps that stop at the first failure). */
export async function gitOut(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await git(args, options)
  if (!result.ok) throw new Error(`git ${args[0]}: ${result.error}`)
  return result.stdout.trim()
}
