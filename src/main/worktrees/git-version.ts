import { git } from './git'

/** The oldest git worktrees work with: `sparse-checkout set --cone` and `worktree add --lock --reason` (2.25, 2020). */
export const MIN_GIT_VERSION = [2, 25, 0] as const

/** Whether git can make worktrees here, and when not, the one sentence to tell the user. */
export type GitCheck = { ok: true; version: string } | { ok: false; reason: 'missing' | 'too-old' | 'broken'; message: string }

/** Parses `git version 2.39.5` (and vendor suffixes such as `.windows.1`, `(Apple Git-143)`). */
export function parseGitVersion(text: string): [number, number, number] | undefined {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text)
  if (!match) return undefined
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)]
}

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let i = 0; i < floor.length; i++) {
    if ((version[i] ?? 0) !== floor[i]) return (version[i] ?? 0) > floor[i]!
  }
  return true
}

/**
 * Checks the `git` on PATH once: missing, too old, or usable. Contract: never rejects; the message
 * is what the UI and `sous -p` print as they are.
 */
export async function checkGit(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<GitCheck> {
  const out = await git(['--version'], { cwd, env })
  if (!out.ok) {
    if (out.missing) return { ok: false, reason: 'missing', message: 'Worktrees need git, and no git program was found on PATH. Install git (2.25 or later), then try again.' }
    return { ok: false, reason: 'broken', message: `Worktrees need git, and \`git --version\` failed: ${out.error}` }
  }
  const version = parseGitVersion(out.stdout)
  const floor = MIN_GIT_VERSION.join('.')
  if (!version) return { ok: false, reason: 'broken', message: `Worktrees need git ${floor} or later, and \`git --version\` printed something else: ${out.stdout.trim().slice(0, 80)}` }
  if (!atLeast(version, MIN_GIT_VERSION)) return { ok: false, reason: 'too-old', message: `Worktrees need git ${floor} or later; this git is ${version.join('.')}. Update git, then try again.` }
  return { ok: true, version: version.join('.') }
}
