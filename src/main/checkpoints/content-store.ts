import { createHash } from 'node:crypto'
import { lstat, mkdir, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '../base/atomic-write'
import { GitignoreMatcher } from '../base/gitignore'
import type { Changes } from './change-feed'
import { captureContent, type ContentCapture, type StatKey } from './content-capture'
import { checkpointsDir, MAX_FILE_BYTES, MAX_FILES, MAX_SESSION_BYTES, type ScanReport, type TreeEntries, type TreeEntry } from './types'

/**
 * Snapshots of a folder that is not a git repository (or one whose configuration git must not be
 * trusted with): a content-addressed store under `$SOUS_HOME/checkpoints/`. A blob is named by
 * the sha256 of its bytes (`blobs/ab/cdef…`), so checkpoints share what did not change; a
 * manifest lists a checkpoint's files (`manifests/<sha256>.json`): the changes since the
 * previous manifest, with a full listing every {@link FULL_EVERY} manifests (written after the
 * snapshot answered) so reading one never walks a long chain.
 *
 * Incremental: given the paths a watcher saw change, only those are looked at; and a file whose
 * size, mtime, ctime and inode match the previous snapshot's is not read again. `.gitignore`
 * files are honoured (the shared matcher) and `.git` folders never walked. Caps: {@link MAX_FILE_BYTES} per file (larger files are listed in `skipped` and left
 * alone by restore), {@link MAX_SESSION_BYTES} of new content per session, {@link MAX_FILES}.
 */
export class ContentStore {
  /** Bytes of new blobs this session wrote. */
  private added = 0
  /** Blob folders known to exist. */
  private readonly folders = new Set<string>()
  private previous: { root: string; manifest: string; entries: TreeEntries; stats: Map<string, StatKey>; skipped: Set<string>; depth: number } | undefined

  constructor(private readonly home: string) {}

  private blobPath(id: string): string {
    return join(checkpointsDir(this.home), 'blobs', id.slice(0, 2), id.slice(2))
  }

  private manifestPath(id: string): string {
    return join(checkpointsDir(this.home), 'manifests', `${id}.json`)
  }

  /**
   * Records `root` and returns the manifest's id. With `changes` naming paths (a watcher's), the
   * previous snapshot's files are kept and only those paths are read again (a folder whole);
   * otherwise every folder is walked. `read` is called once the tree has been read: with it and a
   * watcher's paths that are files (or links, or gone), they are read into memory first
   * ({@link captureContent}), `read` is called, and their blobs and the manifest are hashed and
   * written after, from those bytes, so the call may run meanwhile. Throws on failure (a cap,
   * disk full, permissions) — after `read` when it fails writing.
   */
  async snapshot(root: string, changes: Changes = { kind: 'all', reason: 'no file watcher' }, read?: () => void): Promise<{ manifest: string; scan: ScanReport }> {
    await this.flush()
    const previous = this.previous?.root === root ? this.previous : undefined
    const partial = changes.kind === 'paths' && previous ? changes.paths : undefined
    if (partial?.length === 0) return { manifest: previous!.manifest, scan: { kind: 'unchanged' } }
    const entries: TreeEntries = new Map(partial && previous?.entries)
    const stats = new Map<string, StatKey>(partial && previous?.stats)
    const skipped = new Set<string>(partial && previous?.skipped)
    const matcher = new GitignoreMatcher(root)
    const walk = async (folder: string): Promise<void> => {
      const names = await readdir(join(root, folder), { withFileTypes: true })
      const folders: string[] = []
      // A folder's files are read side by side: the walk waits on the disk, not on each file in turn.
      await Promise.all(
        names.map(async (dirent) => {
          const path = folder ? `${folder}/${dirent.name}` : dirent.name
          if (dirent.name === '.git') return
          const isDir = dirent.isDirectory()
          if (await matcher.ignores(path, isDir)) return
          if (isDir) return void folders.push(path)
          await add(path)
        }),
      )
      for (const path of folders.sort()) await walk(path)
    }
    const touched = partial ? new Set<string>() : undefined
    const add = async (path: string): Promise<void> => {
      if (stats.size + skipped.size >= MAX_FILES) throw new Error(`the folder has more than ${MAX_FILES} files`)
      touched?.add(path)
      const entry = await this.capture(root, path, stats)
      if (entry === 'too-large') skipped.add(path)
      else if (entry) entries.set(path, entry)
    }
    const early = partial && read ? captureContent(root, partial, previous!.stats) : undefined
    if (early) {
      read!()
      for (const path of forget(partial!, entries, stats, skipped)) touched!.add(path)
      await this.fromCapture(root, early, { entries, stats, skipped, touched: touched! })
    } else if (!partial) await walk('')
    else {
      for (const path of forget(partial, entries, stats, skipped)) touched!.add(path)
      const realRoot = await realpath(root)
      for (const path of partial) {
        if (path.split('/').includes('.git')) continue
        // The walk never goes through a link to a folder: neither does a path it did not come by.
        const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''
        if (parent && (await realpath(join(root, parent)).catch(() => undefined)) !== join(realRoot, parent)) continue
        const info = await lstat(join(root, path)).catch(() => undefined)
        if (!info || (await matcher.ignores(path, info.isDirectory()))) continue
        if (info.isDirectory()) await walk(path)
        else await add(path)
      }
    }
    const scan: ScanReport = !partial ? { kind: 'full', reason: changes.kind === 'all' ? changes.reason : 'no previous snapshot in this process' } : { kind: 'paths', paths: partial.length }
    return { manifest: await this.writeManifest(root, entries, stats, skipped, touched), scan }
  }

  /** A capture's entries, judged by the `.gitignore` rules read with it, its blobs stored from the bytes read then. */
  private async fromCapture(root: string, capture: ContentCapture, into: { entries: TreeEntries; stats: Map<string, StatKey>; skipped: Set<string>; touched: Set<string> }): Promise<void> {
    const matcher = new GitignoreMatcher(root)
    for (const [folder, text] of capture.ignores) matcher.seed(folder, text)
    for (const item of capture.paths) {
      if (item.kind === 'gone' || (await matcher.ignores(item.path, false))) continue
      if (into.stats.size + into.skipped.size >= MAX_FILES) throw new Error(`the folder has more than ${MAX_FILES} files`)
      into.touched.add(item.path)
      into.stats.set(item.path, item.kind === 'bytes' ? { ...item.key, id: await this.store(item.bytes) } : item.key)
      const entry = item.kind === 'known' ? this.previous?.entries.get(item.path) : item.kind === 'bytes' ? { mode: item.mode, id: into.stats.get(item.path)!.id } : undefined
      if (entry) into.entries.set(item.path, entry)
      else into.skipped.add(item.path)
    }
  }

  /** Stores `bytes` as a blob (once); its id. */
  private async store(bytes: Buffer): Promise<string> {
    const id = createHash('sha256').update(bytes).digest('hex')
    await this.putBlob(id, bytes)
    return id
  }

  /** One file's entry (its blob stored), `too-large` past the cap, undefined for what is neither file nor link. */
  private async capture(root: string, path: string, stats: Map<string, StatKey>): Promise<TreeEntry | 'too-large' | undefined> {
    const absolute = join(root, path)
    const info = await lstat(absolute)
    const key: StatKey = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, mode: info.mode, id: '' }
    const known = this.previous?.stats.get(path)
    if (known && known.size === key.size && known.mtimeMs === key.mtimeMs && known.ctimeMs === key.ctimeMs && known.ino === key.ino && known.mode === key.mode) {
      stats.set(path, known)
      return this.previous!.entries.get(path) ?? 'too-large'
    }
    let bytes: Buffer
    let mode: string
    if (info.isSymbolicLink()) {
      bytes = Buffer.from(await readlink(absolute))
      mode = '120000'
    } else if (info.isFile()) {
      if (info.size > MAX_FILE_BYTES) {
        stats.set(path, key)
        return 'too-large'
      }
      bytes = await readFile(absolute)
      mode = info.mode & 0o111 ? '100755' : '100644'
    } else return undefined
    const id = await this.store(bytes)
    stats.set(path, { ...key, id })
    return { mode, id }
  }

  private async putBlob(id: string, bytes: Buffer): Promise<void> {
    const path = this.blobPath(id)
    if (await stat(path).then(() => true, () => false)) return
    if (this.added + bytes.length > MAX_SESSION_BYTES) throw new Error(`the session's checkpoints reached their cap of ${MAX_SESSION_BYTES / 1024 / 1024} MiB`)
    if (!this.folders.has(dirname(path))) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      this.folders.add(dirname(path))
    }
    // Atomic, and a write the disk refused leaves no partial blob behind to fill it further.
    await writeFileAtomic(path, bytes)
    this.added += bytes.length
  }

  /** `touched`: the only paths whose entries can differ from the previous manifest's (a partial snapshot's), so only they are compared. */
  private async writeManifest(root: string, entries: TreeEntries, stats: Map<string, StatKey>, skipped: Set<string>, touched?: Set<string>): Promise<string> {
    const previous = this.previous
    const full = !previous
    const files: Record<string, [string, string] | null> = {}
    const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    if (!full && touched) {
      for (const path of [...touched].sort(order)) {
        const [now, before] = [entries.get(path), previous.entries.get(path)]
        if (now && (!before || before.mode !== now.mode || before.id !== now.id)) files[path] = [now.mode, now.id]
        else if (!now && before) files[path] = null
      }
    } else if (full) {
      // Sorted, so the same files always make the same manifest (and its id).
      for (const [path, entry] of [...entries].sort(([a], [b]) => order(a, b))) files[path] = [entry.mode, entry.id]
    } else {
      const sorted = [...entries].sort(([a], [b]) => order(a, b))
      for (const [path, entry] of sorted) {
        const before = previous.entries.get(path)
        if (!before || before.mode !== entry.mode || before.id !== entry.id) files[path] = [entry.mode, entry.id]
      }
      for (const path of previous.entries.keys()) if (!entries.has(path)) files[path] = null
    }
    const body: Manifest = { ...(!full && { base: previous.manifest }), files, skipped: [...skipped].sort() }
    const text = JSON.stringify(body)
    const id = createHash('sha256').update(text).digest('hex')
    const path = this.manifestPath(id)
    await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    if (!(await stat(path).then(() => true, () => false))) await writeFileAtomic(path, text)
    const state = { root, manifest: id, entries, stats, skipped, depth: full ? 0 : previous.depth + 1 }
    this.previous = state
    // The full listing that keeps chains short is written after the snapshot answered (the
    // delta just written is as good a manifest); the next snapshot waits for it.
    if (state.depth + 1 >= FULL_EVERY) this.compacting = this.writeFull(state).catch(() => undefined)
    return id
  }

  private compacting: Promise<unknown> = Promise.resolve()

  /** Resolves once the full listing being written (if any) is written. */
  async flush(): Promise<void> {
    await this.compacting
  }

  /** A full manifest of `state`'s files, which the next delta then starts from. */
  private async writeFull(state: NonNullable<ContentStore['previous']>): Promise<void> {
    const files: Record<string, [string, string]> = {}
    for (const [path, entry] of [...state.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) files[path] = [entry.mode, entry.id]
    const text = JSON.stringify({ files, skipped: [...state.skipped].sort() } satisfies Manifest)
    const id = createHash('sha256').update(text).digest('hex')
    const path = this.manifestPath(id)
    if (!(await stat(path).then(() => true, () => false))) await writeFileAtomic(path, text)
    if (this.previous === state) this.previous = { ...state, manifest: id, depth: 0 }
  }

  /** A manifest's files and the paths it skipped (over the cap). Throws when the manifest is missing or damaged. */
  async entries(manifest: string): Promise<{ entries: TreeEntries; skipped: Set<string> }> {
    const chain: Manifest[] = []
    for (let id: string | undefined = manifest; id !== undefined; ) {
      const text = await readFile(this.manifestPath(id), 'utf8').catch(() => undefined)
      if (text === undefined) throw new Error(`manifest ${id.slice(0, 12)} is missing from the store`)
      const body = JSON.parse(text) as Manifest
      chain.unshift(body)
      id = body.base
    }
    const entries: TreeEntries = new Map()
    for (const body of chain) {
      for (const [path, entry] of Object.entries(body.files)) {
        if (entry) entries.set(path, { mode: entry[0], id: entry[1] })
        else entries.delete(path)
      }
    }
    return { entries, skipped: new Set(chain.at(-1)?.skipped ?? []) }
  }

  /** Blob contents by id; ids the store lacks are listed in `missing`. */
  async blobs(ids: readonly string[]): Promise<{ contents: Map<string, Buffer>; missing: string[] }> {
    const contents = new Map<string, Buffer>()
    const missing: string[] = []
    for (const id of ids) {
      const bytes = await readFile(this.blobPath(id)).catch(() => undefined)
      if (bytes === undefined || createHash('sha256').update(bytes).digest('hex') !== id) missing.push(id)
      else contents.set(id, bytes)
    }
    return { contents, missing }
  }
}

/** Manifests after which the next one lists every file again. */
const FULL_EVERY = 32

interface Manifest {
  base?: string
  /** path → [mode, blob id], or null for a file gone since the base. */
  files: Record<string, [string, string] | null>
  skipped: string[]
}

/** Drops from a snapshot's maps every path that is one of `paths` or lies under one (they are read again); the entries dropped. */
function forget(paths: readonly string[], entries: TreeEntries, stats: Map<string, StatKey>, skipped: Set<string>): string[] {
  const dropped: string[] = []
  if (paths.length === 0) return dropped
  const changed = new Set(paths)
  const under = (path: string): boolean => {
    if (changed.has(path)) return true
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) if (changed.has(path.slice(0, at))) return true
    return false
  }
  for (const path of entries.keys()) if (under(path)) dropped.push(path)
  for (const path of dropped) entries.delete(path)
  for (const path of stats.keys()) if (under(path)) stats.delete(path)
  for (const path of skipped) if (under(path)) skipped.delete(path)
  return dropped
}
