import { lstat, readFile } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import type { Blob } from './blobs'

/**
 * What the compare view's reads keep between opens, and only what cannot go stale: a commit's
 * files and the merge base of two commits never change once the commits are named by id, so
 * they are cached by those ids. The working tree itself (what a session is editing right now) is
 * listed and read again at every read: a session's unstaged edit changes neither HEAD nor the
 * index, so a cache keyed by them would show a stale diff. HEAD is read from the files git reads
 * (`.git`, `HEAD`, a loose ref), with no process, where they are plain; otherwise the caller asks git.
 */

const HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/**
 * The commit HEAD points at in `checkout`, read from files: `<checkout>/.git` (a folder or a
 * `gitdir:` file), its `HEAD`, and the loose ref HEAD names (in the worktree's git folder, then
 * the common one). Undefined whenever anything is not plain (a packed or reftable ref, a
 * symbolic ref to a symbolic ref, an unreadable file): the caller then asks `git rev-parse`.
 * Contract: never rejects.
 */
export async function headFromFiles(checkout: string): Promise<string | undefined> {
  try {
    const dotGit = join(checkout, '.git')
    const stat = await lstat(dotGit)
    let gitDir: string
    if (stat.isDirectory()) gitDir = dotGit
    else if (stat.isFile()) {
      const line = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1]?.trim()
      if (!line) return undefined
      gitDir = isAbsolute(line) ? line : resolve(checkout, line)
    } else return undefined
    const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim()
    if (HEX.test(head)) return head
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1]
    // A ref name with `..` could read a file outside the git folders; git refuses such names too.
    if (!ref || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined
    const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined))?.trim()
    const folders = [gitDir, ...(common === undefined ? [] : [isAbsolute(common) ? common : resolve(gitDir, common)])]
    for (const folder of folders) {
      const oid = (await readFile(join(folder, ref), 'utf8').catch(() => undefined))?.trim()
      if (oid !== undefined) return HEX.test(oid) ? oid : undefined
    }
  } catch {
    // Not plain: git answers.
  }
  return undefined
}

/** A map that forgets its oldest entries beyond `max` entries. */
class Bounded<V> {
  private readonly map = new Map<string, V>()
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.map.get(key)
  }
  set(key: string, value: V): void {
    this.map.delete(key)
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!)
    this.map.set(key, value)
  }
}

const MERGE_BASES = new Bounded<string>(1024)

/** The merge base of two commits (by id) found before, if any. */
export function knownMergeBase(head: string, baseHead: string): string | undefined {
  return MERGE_BASES.get(`${head}:${baseHead}`)
}

/** Keeps the merge base of two commits (by id): it never changes. */
export function rememberMergeBase(head: string, baseHead: string, fork: string): void {
  if (HEX.test(head) && HEX.test(baseHead)) MERGE_BASES.set(`${head}:${baseHead}`, fork)
}

/** Files at a commit, by `<commit>:<path>`, oldest out first beyond {@link MAX_BLOB_BYTES} in all. */
const BLOBS = new Map<string, Buffer>()
let blobBytes = 0
const MAX_BLOB_BYTES = 64 * 1024 * 1024
/** A larger file is read again each time rather than crowd out the many small ones. */
const MAX_CACHED_BLOB = 2 * 1024 * 1024

/** Commits whose files were read before (a hint only: their files may have been let go since). */
const READ_COMMITS = new Bounded<true>(1024)

/** Whether files of `commit` were read before: a reader started ahead for a commit never read is likely to be asked. */
export function readBefore(commit: string): boolean {
  return READ_COMMITS.get(commit) === true
}

/** The files of `commit` among `paths` already read, and the paths still to ask git for. */
export function knownBlobs(commit: string, paths: readonly string[]): { known: Map<string, Blob>; missing: string[] } {
  const known = new Map<string, Blob>()
  const missing: string[] = []
  for (const path of paths) {
    const blob = BLOBS.get(`${commit}:${path}`)
    if (blob) known.set(path, blob)
    else missing.push(path)
  }
  return { known, missing }
}

/**
 * Keeps files read at `commit`. Only files found are kept: an absent one may be a failed read
 * (the blob reader reads a failed run as every file absent). Only a full commit id is a key.
 */
export function rememberBlobs(commit: string, read: ReadonlyMap<string, Blob>): void {
  if (!HEX.test(commit)) return
  READ_COMMITS.set(commit, true)
  for (const [path, blob] of read) {
    if (!blob || blob.length > MAX_CACHED_BLOB) continue
    const key = `${commit}:${path}`
    const old = BLOBS.get(key)
    if (old) blobBytes -= old.length
    BLOBS.delete(key)
    BLOBS.set(key, blob)
    blobBytes += blob.length
  }
  for (const [key, blob] of BLOBS) {
    if (blobBytes <= MAX_BLOB_BYTES) break
    BLOBS.delete(key)
    blobBytes -= blob.length
  }
}
