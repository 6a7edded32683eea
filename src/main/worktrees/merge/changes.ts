import { createHash } from 'node:crypto'
import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { reviewChange } from '../../../shared/edit-review'
import { isBinary, startBlobReader, type BlobReader } from './blobs'
import { git, gitOut } from './git'
import { headFromFiles, knownBlobs, readBefore, knownMergeBase, rememberBlobs, rememberMergeBase } from './read-cache'

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

/**
 * The commit HEAD points at in `cwd`; throws when it is not a git checkout with a commit. Read
 * from git's files when they are plain (no process: the compare view reads every session's HEAD
 * at each open), else from `git rev-parse`.
 */
export async function headOf(cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return (await headFromFiles(cwd)) ?? gitOut(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd, ...(env && { env }) })
}

/**
 * The commit a worktree's changes are measured from: the merge base of its HEAD and the base
 * checkout's HEAD (where it forked, or the base commit it last took in through "Update from base").
 */
export async function forkPointOf(baseRoot: string, worktree: string, env?: NodeJS.ProcessEnv, knownBaseHead?: string): Promise<string> {
  const baseHead = knownBaseHead ?? (await headOf(baseRoot, env))
  return gitOut(['merge-base', 'HEAD', baseHead], { cwd: worktree, ...(env && { env }) })
}

/** Each changed path and how, against the fork point. */
type Listing = Map<string, WorktreeFile['change']>

/** What {@link worktreeChanges} may be handed already started (see {@link readWorktree}). */
interface Started {
  listing: Promise<Listing>
  /** Absent: started only if some file of the fork point is not cached. */
  blobs?: BlobReader
}

/**
 * Every file the worktree differs in from `fork`: committed, staged, unstaged and untracked (not
 * ignored) changes alike, each with both texts when they are text. Renames are a deletion and an
 * addition. Contract: throws only when git cannot list the worktree.
 */
export async function worktreeChanges(worktree: string, fork: string, env?: NodeJS.ProcessEnv, started?: Started): Promise<WorktreeFile[]> {
  const blobs = started ? started.blobs : startBlobReader(worktree, env)
  let listed: Listing
  try {
    listed = await (started?.listing ?? listAgainst(worktree, fork, env))
  } catch (error) {
    blobs?.close()
    throw error
  }
  const paths = [...listed.keys()].filter((path) => !path.startsWith(WORKTREES_FOLDER)).sort()
  const before = await forkFiles(worktree, fork, paths.filter((path) => listed.get(path) !== 'added'), blobs, env)
  const files = await Promise.all(paths.map((path) => describe(worktree, path, listed.get(path)!, before.get(path))))
  // `git status` also lists a file staged and then put back as it was, or added and then removed:
  // no change against the fork point.
  return files.filter((file) => !(file.change === 'modified' && file.afterHash === file.beforeHash) && !(file.change === 'deleted' && listed.get(file.path) === 'added'))
}

/** The changes against `fork` from `git diff --name-status` and the untracked listing (`untracked`, when already started), side by side. */
async function listAgainst(worktree: string, fork: string, env?: NodeJS.ProcessEnv, untrackedRun = listUntracked(worktree, env)): Promise<Listing> {
  const [tracked, untracked] = await Promise.all([git(['diff', '--no-renames', '--no-ext-diff', '--no-textconv', '--name-status', '-z', fork, '--'], { cwd: worktree, ...(env && { env }) }), untrackedRun])
  if (!tracked.ok) throw new Error(`git diff: ${tracked.error}`)
  const listed: Listing = new Map()
  const fields = tracked.stdout.split('\0')
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!
    listed.set(fields[i + 1]!, status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified')
  }
  if (untracked.ok) for (const path of untracked.stdout.split('\0')) if (path && !listed.has(path)) listed.set(path, 'added')
  return listed
}

/**
 * The changes of a worktree whose HEAD is its fork point, in one process: `git status` lists
 * staged, unstaged and untracked changes against HEAD at once (the usual case, no commit since the
 * fork: half the processes of {@link listAgainst}). `--no-optional-locks`: the read never writes
 * the index a session's own git may be using.
 */
async function listAtHead(worktree: string, env?: NodeJS.ProcessEnv): Promise<Listing> {
  const status = await git(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all'], { cwd: worktree, ...(env && { env }) })
  if (!status.ok) throw new Error(`git status: ${status.error}`)
  const listed: Listing = new Map()
  for (const entry of status.stdout.split('\0')) {
    if (entry.length < 4) continue
    const [x, path] = [entry[0], entry.slice(3)]
    // Not in HEAD (untracked, or staged as new): added; out of the index: deleted; otherwise
    // modified (a file gone from the working tree is found deleted when it is read).
    if (!listed.has(path)) listed.set(path, x === '?' || x === 'A' ? 'added' : x === 'D' ? 'deleted' : 'modified')
  }
  return listed
}

/** The files at the fork point: from the cache (a commit's files never change), the rest in one `git cat-file --batch`. */
async function forkFiles(worktree: string, fork: string, paths: readonly string[], started: BlobReader | undefined, env?: NodeJS.ProcessEnv): Promise<Map<string, Buffer | undefined>> {
  const { known, missing } = knownBlobs(fork, paths)
  if (missing.length === 0) {
    started?.close()
    return known
  }
  const read = await (started ?? startBlobReader(worktree, env)).read(fork, missing)
  rememberBlobs(fork, read)
  for (const [path, blob] of read) known.set(path, blob)
  return known
}

/**
 * A worktree's fork point and changes, as fast as git allows. The working tree is listed afresh
 * each time, and its files read from disk; what cannot go stale is cached (see `read-cache.ts`):
 * HEAD is read from files, the fork point by the two commits' ids, the fork point's files by
 * commit and path. A warm read of a worktree whose HEAD is its fork point (no commit since) is then
 * one process (`git status`); after a commit, two in parallel (`git diff --name-status` against the
 * fork and the untracked listing). Cold, the blob reader (`git cat-file --batch`) starts beside the
 * merge base rather than after it — the compare view's first paint waits for this for every session.
 */
export async function readWorktree(worktree: string, baseHead: string, env?: NodeJS.ProcessEnv): Promise<{ fork: string; files: WorktreeFile[] }> {
  const head = await headFromFiles(worktree)
  // A worktree still at the base's HEAD (no commit on either side since the fork: the usual
  // case) forked there; no process asks.
  const cached = head === undefined ? undefined : head === baseHead ? head : knownMergeBase(head, baseHead)
  if (cached) {
    const listing = cached === head ? listAtHead(worktree, env) : listAgainst(worktree, cached, env)
    return { fork: cached, files: await worktreeChanges(worktree, cached, env, { listing, ...(!readBefore(cached) && { blobs: startBlobReader(worktree, env) }) }) }
  }
  const untracked = listUntracked(worktree, env)
  const blobs = startBlobReader(worktree, env)
  let fork: string
  try {
    fork = await gitOut(['merge-base', head ?? 'HEAD', baseHead], { cwd: worktree, ...(env && { env }) })
  } catch (error) {
    blobs.close()
    throw error
  }
  if (head !== undefined) rememberMergeBase(head, baseHead, fork)
  return { fork, files: await worktreeChanges(worktree, fork, env, { listing: listAgainst(worktree, fork, env, untracked), blobs }) }
}

function listUntracked(worktree: string, env?: NodeJS.ProcessEnv): ReturnType<typeof git> {
  return git(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: worktree, ...(env && { env }) })
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
  const counts = countsOf(file.beforeHash, file.afterHash, before ?? '', after ?? '')
  return { ...file, ...counts, ...(before !== undefined && { before }), ...(after !== undefined && { after }) }
}

/**
 * A file's hunk counts by the hashes of its two texts: the compare view reads every session's
 * changes again at each `parallel.changed` while the sessions work, and most files have not
 * changed since the last read, so their diff is not computed again. Bounded (oldest out first).
 */
const COUNTS = new Map<string, { additions: number; deletions: number; hunks: number }>()
const MAX_COUNTS = 4096

function countsOf(beforeHash: string, afterHash: string, before: string, after: string): { additions: number; deletions: number; hunks: number } {
  const key = `${beforeHash}:${afterHash}`
  const known = COUNTS.get(key)
  if (known) return known
  const review = reviewChange(before, after)
  const counts = { additions: 0, deletions: 0, hunks: review.hunks.length }
  for (const hunk of review.hunks) {
    counts.additions += hunk.afterCount
    counts.deletions += hunk.beforeCount
  }
  if (COUNTS.size >= MAX_COUNTS) COUNTS.delete(COUNTS.keys().next().value!)
  COUNTS.set(key, counts)
  return counts
}
