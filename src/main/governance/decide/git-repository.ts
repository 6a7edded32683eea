import { execFile } from 'node:child_process'
import { childEnvironment } from '../../base/child-env'
import { outsideAnyRepository } from '../../base/git-discovery'
import { SAFE_KEYS, SAFE_WITH_ENVIRONMENT, safeGitEnvironment, unsafeKeys } from '../../base/git-safety'
// Only ever given an analysis, so the analyzer is loaded (analyzer.ts).
import { bashAnalyzer } from '../bash/analyzer'
import type { BashAnalysis } from '../bash/types'

/**
 * Whether the agent's read-only git may run without asking in `cwd`: a read-only verdict covers
 * git's options, not the repository git will read. Its own configuration can name programs
 * (filters, diff drivers, `core.worktree` somewhere else) that the safe-key environment cannot
 * switch off by name, and a folder laid out as a git directory (committed, or from an archive)
 * makes git use *its* configuration when a command runs inside it. So git itself is asked, with
 * the same protections as the command will have, what configuration it would read there
 * (`git config --list --show-scope`).
 */

const TIMEOUT_MS = 3_000

/** Why the read-only git commands of `analysis` must be asked about in `cwd`, or undefined. Contract: never throws. */
export async function gitRepositoryConcern(analysis: BashAnalysis, cwd: string): Promise<string | undefined> {
  const git = analysis.commands.find((command, i) => analysis.verdicts[i]?.readOnly && command.argv[bashAnalyzer().unwrapCommand(command.argv).start] === 'git')
  if (!git) return undefined
  const found = await readConfig(cwd)
  if (found.kind === 'missing') return undefined
  if (found.kind === 'bare') return `${git.text.trim()}: runs inside a folder laid out as a git directory (an embedded repository: git would obey its configuration)`
  if (found.kind === 'failed') return `${git.text.trim()}: git could not read the repository's configuration (${found.message})`
  const unsafe = unsafeKeys(found.listing, [...SAFE_KEYS, ...SAFE_WITH_ENVIRONMENT])
  if (unsafe.length === 0) return undefined
  return `${git.text.trim()}: the repository's own git configuration sets ${unsafe.slice(0, 3).join(', ')}${unsafe.length > 3 ? '…' : ''}, which can make git run programs`
}

type ConfigReading = { kind: 'listing'; listing: string } | { kind: 'bare' } | { kind: 'failed'; message: string } | { kind: 'missing' }

/**
 * Which repository git finds from `cwd`, then its configuration. `git config --list` alone treats
 * a refused bare repository as no repository at all, so `rev-parse` asks first. (Running both at
 * once measured no faster on the two shared cores: p50 17.8 ms one after the other, 19.6 ms at
 * once, load 11.) With no `.git` and no `HEAD` anywhere above `cwd` and no variable
 * pointing git elsewhere, git would answer "not a git repository" (`base/git-discovery.ts`):
 * that answer is taken without running it, the one case git is not asked (issue 30: the gate's
 * read-only chain spent ~5 ms on that `git rev-parse`).
 */
async function readConfig(cwd: string): Promise<ConfigReading> {
  const env = gitEnvironment()
  if (await outsideAnyRepository(cwd, env)) return { kind: 'listing', listing: '' }
  const found = await git(['rev-parse', '--absolute-git-dir'], cwd, env)
  if (found.kind !== 'ok') {
    if (found.kind === 'missing') return found
    if (/cannot use bare repository/i.test(found.stderr)) return { kind: 'bare' }
    // Not a repository: git reads only the user's own configuration there.
    if (/not a git repository/i.test(found.stderr)) return { kind: 'listing', listing: '' }
    return { kind: 'failed', message: found.stderr.trim().split('\n')[0] || 'failed' }
  }
  const config = await git(['config', '--list', '--show-scope', '--null'], cwd, env)
  if (config.kind === 'ok') return { kind: 'listing', listing: config.stdout }
  return config.kind === 'missing' ? config : { kind: 'failed', message: config.stderr.trim().split('\n')[0] || 'failed' }
}

/** The environment both git runs get: the command's protections, no locks taken, messages in English (they are matched). */
function gitEnvironment(): NodeJS.ProcessEnv {
  return { ...childEnvironment(process.env), ...safeGitEnvironment(process.env), GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }
}

type GitRun = { kind: 'ok'; stdout: string } | { kind: 'error'; stderr: string } | { kind: 'missing' }

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env, timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve({ kind: 'ok', stdout })
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ kind: 'missing' })
      resolve({ kind: 'error', stderr: stderr || error.message })
    })
  })
}
