import { createHash } from 'node:crypto'
import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { reviewChange } from '../../../shared/edit-review'
import { isBinary, readBlobs } from './blobs'
import { git, gitOut } from './git'

/** Above this a file is compared and merged whole, never hunk by hunk (Monaco and the merge stay quick). */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024

/** Where Claude Code keeps worktrees inside a project; never part of a session's changes. */
const WORKTREES_FOLDER = '.claude/worktrees/'

/** One file a session changed, against the commit its worktree forked from. */
export interface WorktreeFile {
  path: string
  change: 'added' | 'modified' | 'deleted'
  /** The text at the fork point (absent: added, binary or too large). */
  before?: string
  /** The text now in the worktree (absent: deleted, binary or too large). */
  after?: string
  /** Binary or too large: picked whole or not at all. */
  whole: boolean
  additions: number
  deletions: number
  hunks: number
  /** sha256 of the worktree's bytes now (empty for a deleted file): a whole-file pick checks it at apply. */
  afterHash: string
  /** sha256 of the bytes at the fork point (empty for an added file): tells a base that changed since. */
  beforeHash: string
  /** Why the file cannot be merged (a symbolic link); shown, never picked. */
  unsupported?: string
}

/** sha256 of text or bytes, hex. */
export function hashOf(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** The commit HEAD points at in `cwd`; throws when it is not a git checkout with a commit. */
export function headOf(cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return gitOut(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd, ...(env && { env }) })
}

/**
 * The commit a worktree's changes are measured from: the merge base of its HEAD and the base
 * checkout's HEAD (where it forked, or the base commit it last took in through "Update from base").
 */
export async function forkPointOf(baseRoot: string, worktree: string, env?: NodeJS.ProcessEnv, knownBaseHead?: string): Promise<string> {
  const baseHead = knownBaseHead ?? (await headOf(baseRoot, env))
  return gitOut(['merge-base', 'HEAD', baseHead], { cwd: worktree, ...(env && { env }) })
}

/**
 * Every file the worktree differs in from `fork`: committed, staged, unstaged and untracked (not
 * ignored) changes alike, each with both texts when they are text. Renames are a deletion and an
 * addition. Contract: throws only when git cannot list the worktree.
 */
export async function worktreeChanges(worktree: string, fork: string, env?: NodeJS.ProcessEnv): Promise<WorktreeFile[]> {
  const options = { cwd: worktree, ...(env && { env }) }
  const [tracked, untracked] = await Promise.all([
    git(['diff', '--no-renames', '--no-ext-diff', '--no-textconv', '--name-status', '-z', fork, '--'], options),
    git(['ls-files', '--others', '--exclude-standard', '-z'], options),
  ])
  if (!tracked.ok) throw new Error(`git diff: ${tracked.error}`)
  const listed = new Map<string, WorktreeFile['change']>()
  const fields = tracked.stdout.split('\0')
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!
    const path = fields[i + 1]!
    listed.set(path, status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified')
  }
  if (untracked.ok) for (const path of untracked.stdout.split('\0')) if (path && !listed.has(path)) listed.set(path, 'added')
  const paths = [...listed.keys()].filter((path) => !path.startsWith(WORKTREES_FOLDER)).sort()
  const before = await readBlobs(worktree, fork, paths.filter((path) => listed.get(path) !== 'added'), env)
  return Promise.all(paths.map((path) => describe(worktree, path, listed.get(path)!, before.get(path))))
}

/** One file's texts, counts and hash. */
async function describe(worktree: string, path: string, listed: WorktreeFile['change'], beforeBytes: Buffer | undefined): Promise<WorktreeFile> {
  let change = listed
  let afterBytes: Buffer | undefined
  let unsupported: string | undefined
  if (change !== 'deleted') {
    const stat = await lstat(join(worktree, path)).catch(() => undefined)
    if (!stat) change = 'deleted'
    else if (stat.isSymbolicLink()) unsupported = 'a symbolic link (merge it with git)'
    else if (!stat.isFile()) unsupported = 'not a regular file'
    else afterBytes = await readFile(join(worktree, path))
  }
  const textual = (bytes: Buffer | undefined) => bytes === undefined || (bytes.length <= MAX_TEXT_BYTES && !isBinary(bytes))
  const whole = !textual(beforeBytes) || !textual(afterBytes)
  const file: WorktreeFile = { path, change, whole, additions: 0, deletions: 0, hunks: 0, afterHash: afterBytes ? hashOf(afterBytes) : '', beforeHash: beforeBytes ? hashOf(beforeBytes) : '', ...(unsupported && { unsupported }) }
  if (whole) return file
  const before = beforeBytes?.toString('utf8')
  const after = afterBytes?.toString('utf8')
  const review = reviewChange(before ?? '', after ?? '')
  for (const hunk of review.hunks) {
    file.additions += hunk.afterCount
    file.deletions += hunk.beforeCount
  }
  return { ...file, hunks: review.hunks.length, ...(before !== undefined && { before }), ...(after !== undefined && { after }) }
}
