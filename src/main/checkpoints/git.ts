import { execFile } from 'node:child_process'
import { childEnvironment } from '../base/child-env'

/**
 * Git as checkpoints run it. A repository is untrusted input, and checkpoints run git on every
 * mutating call, so every call is hardened: no hooks, no fsmonitor, no automatic gc or
 * maintenance, no signing, no reflog for our ref, no optional locks in the user's repository, no
 * bare repository found by discovery, no pager or prompt. Every `GIT_*` variable of the parent is
 * dropped (a `GIT_DIR` or `GIT_INDEX_FILE` from the user's shell must not redirect us into their
 * index), and the identity of our commits is fixed, so a machine without `user.name` works.
 * The repository's own configuration is checked by the caller (`unsafeKeys`): filters and
 * includes there make the store fall back to the content store.
 */
const HARDENING = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.untrackedCache', 'false'],
  ['core.logAllRefUpdates', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['advice.addIgnoredFile', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`])

const IDENTITY = { GIT_AUTHOR_NAME: 'Sous checkpoint', GIT_AUTHOR_EMAIL: 'checkpoints@sous.invalid', GIT_COMMITTER_NAME: 'Sous checkpoint', GIT_COMMITTER_EMAIL: 'checkpoints@sous.invalid' }

/** What one git call gave back; never thrown. */
export type GitOutput = { ok: true; stdout: Buffer } | { ok: false; error: string; missing?: boolean; code?: number; stderr?: string }

/** How to run one call. */
export interface GitCall {
  cwd: string
  env: NodeJS.ProcessEnv
  /** `GIT_INDEX_FILE`: the private temporary index (never the user's). */
  indexFile?: string
  input?: string | Buffer
  timeoutMs?: number
  /** `GIT_LITERAL_PATHSPECS`: paths from the tree (a file named `*` or `:(top)x`) are never read as globs or magic. */
  literal?: boolean
  /** A pinned copy of the user's and system's configuration (`git-config.ts`), read instead of theirs. */
  config?: string
}

/** The hardened environment: the parent's without credentials and without any `GIT_*` variable. */
export function gitEnvironment(env: NodeJS.ProcessEnv, indexFile?: string, literal?: boolean, config?: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(childEnvironment(env))) if (!name.toUpperCase().startsWith('GIT_')) out[name] = value
  return {
    ...out,
    ...IDENTITY,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    LC_ALL: 'C',
    ...(indexFile !== undefined && { GIT_INDEX_FILE: indexFile }),
    ...(literal && { GIT_LITERAL_PATHSPECS: '1' }),
    ...(config !== undefined && { GIT_CONFIG_GLOBAL: config, GIT_CONFIG_NOSYSTEM: '1' }),
  }
}

/** Runs `git <hardening> <args>`; resolves with stdout as bytes, or why it failed. */
export function runGit(args: readonly string[], call: GitCall): Promise<GitOutput> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      [...HARDENING, ...args],
      { cwd: call.cwd, env: gitEnvironment(call.env, call.indexFile, call.literal, call.config), encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: call.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout })
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
        const text = stderr.toString('utf8')
        const said = text.trim().split('\n')[0]
        const code = typeof error.code === 'number' ? error.code : undefined
        resolve({ ok: false, error: said || error.message.split('\n')[0] || 'git failed', ...(missing && { missing }), ...(code !== undefined && { code }), stderr: text })
      },
    )
    if (call.input !== undefined) child.stdin?.end(call.input)
  })
}

/** {@link runGit} as text (trimmed), throwing a plain Error on failure: for sequences that stop at the first failure. */
export async function gitText(args: readonly string[], call: GitCall): Promise<string> {
  const out = await runGit(args, call)
  if (!out.ok) throw new Error(`git ${args[0]}: ${out.error}`)
  return out.stdout.toString('utf8').trim()
}
