import { watch, type FSWatcher } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Fence } from './watch-fence'
import { fold } from './watch-paths'

/** How a {@link TreeWatcher} treats one tree. */
export interface TreeWatcherOptions {
  /** The tree's top folder (absolute). */
  root: string
  /**
   * Of these folders (relative, `/`-separated), those no snapshot reads (wholly ignored): not
   * watched. `initial` while the tree is walked at the start (git answers for the whole tree at
   * once then), false for folders that appear later.
   */
  unwatched(folders: string[], initial: boolean): Promise<Set<string>>
  /**
   * `boundary` (git): a folder holding `.git` is a repository of its own, which git records as one
   * entry (its commit); it is not entered, and it is reported as changed at every take, since
   * its commits happen in a `.git` no watch sees. `enter` (the content store): walked like any
   * folder (`.git` itself never is).
   */
  nested: 'boundary' | 'enter'
  /** Where the fence file is written (a folder of Sous's own, created and removed by the watcher). */
  fenceParent: string
  /** More folders than this to watch and the watcher gives up (the kernel's watches are shared by every program of the user). */
  maxFolders: number
  /** Events (of every watcher in this process) between two takes past which the kernel's queue may have overflowed. */
  maxEvents: number
}

/** Changed paths kept between two takes; past it the take is unknown (a full scan is as cheap). */
const MAX_DIRTY = 10_000

/** What changed since the previous take: the paths, or why they cannot be known. */
export type TakenChanges = { kind: 'paths'; paths: string[] } | { kind: 'unknown'; reason: string }

/**
 * Events seen by every watcher of this process. The kernel queues the events of one inotify
 * instance — which libuv shares between every `fs.watch` of a thread — and drops what comes
 * after `max_queued_events` unread ones without libuv telling anyone, so a take that sees more
 * events than that since the previous one (any watcher's: they fill the same queue) cannot
 * trust its paths.
 */
let eventsInProcess = 0

/** Watches open now in this process, fences included (for tests that prove none is left open). */
export function watchedFolders(): number {
  return watchingNow
}
let watchingNow = 0

/**
 * Watches a tree for changes, one inotify watch per folder (`fs.watch` without `recursive`:
 * Node 20's recursive mode on Linux walks the tree synchronously and watches every file), and
 * hands out the paths that changed since the previous take.
 *
 * What it guarantees, and how: every change whose system call returned before {@link take} began
 * is in that take's paths, or the take says `unknown`.
 * - A take first writes a fence file in a folder of its own and waits for that file's event: the
 *   kernel queues events in order, so once the fence's event is here every earlier one is too.
 * - A folder is watched before it is read, so a folder made while it is walked is either listed
 *   or reported. A folder that appears (made, moved in) is itself a changed path — the snapshot
 *   reads it whole — and is watched (and walked) before the take that hands it out returns.
 * - A folder moved away or deleted loses its watches at once (inotify watches follow the inode,
 *   so the moved folder's events would name the old paths).
 * - `.gitignore`/`.gitattributes` changes, a `.git` appearing at the top, an event naming no
 *   file, a name that is not UTF-8, too many events (a possible queue overflow) make the take
 *   `unknown`; so does a watch or walk that fails (`broken`: the owner starts a new watcher, or
 *   gives up when a limit was hit).
 */
export class TreeWatcher {
  private readonly folders = new Map<string, FSWatcher>()
  /** Nested repositories (`boundary` mode): reported at every take. */
  private readonly nested = new Set<string>()
  /**
   * Files with more than one name: a write through a name in a folder no watch sees (outside the
   * project) makes no event here, so they are reported at every take, as long as they exist.
   */
  private readonly linked = new Set<string>()
  /** The walk's lookups of {@link linked}, awaited by the next take. */
  private linking: Array<Promise<unknown>> = []
  private dirty = new Set<string>()
  private doubt: string | undefined
  private work: Promise<unknown> = Promise.resolve()
  private eventsAtTake = eventsInProcess
  private closed = false
  /** Why the watcher stopped watching; `final` when starting another would fail the same way (a limit was hit). */
  broken: { reason: string; final: boolean } | undefined

  private constructor(
    private readonly o: TreeWatcherOptions,
    private readonly fence: Fence | undefined,
  ) {}

  /** Watches `o.root`'s tree (walked now). A watcher that cannot start comes back `broken`. */
  static async start(o: TreeWatcherOptions): Promise<TreeWatcher> {
    const fence = await Fence.open(o.fenceParent)
    const watcher = new TreeWatcher(o, 'reason' in fence ? undefined : fence)
    if ('reason' in fence) watcher.fail(fence.reason, false)
    else {
      watchingNow++
      await watcher.walk([''], true)
    }
    return watcher
  }

  /** The paths changed since the previous take (or since the start), folded: none under another. */
  async take(): Promise<TakenChanges> {
    if (this.broken || !this.fence) return { kind: 'unknown', reason: this.broken?.reason ?? 'closed' }
    const fenced = await this.fence.pass()
    // Folders that appeared before the fence are watched before their paths are handed out.
    for (let pending = this.work; ; pending = this.work) {
      await pending
      if (pending === this.work) break
    }
    // Awaited work may have broken it (TypeScript keeps the narrowing from before the awaits).
    const broken = this.broken as TreeWatcher['broken']
    if (broken) return { kind: 'unknown', reason: broken.reason }
    const events = eventsInProcess - this.eventsAtTake
    this.eventsAtTake = eventsInProcess
    const dirty = this.dirty
    this.dirty = new Set()
    const doubt = this.doubt
    this.doubt = undefined
    if (!fenced) return { kind: 'unknown', reason: 'the file watcher did not answer in time' }
    if (doubt) return { kind: 'unknown', reason: doubt }
    if (events >= this.o.maxEvents) return { kind: 'unknown', reason: `${events} file events since the last snapshot (the kernel may have dropped some)` }
    await Promise.all(this.linking.splice(0))
    // A link that went (or lost its other names) is reported this once more.
    const linked = [...this.linked]
    const newLink = await this.noteLinks(dirty)
    // Its other names may be anywhere in the tree: a new walk finds those inside it.
    if (newLink) return { kind: 'unknown', reason: `${newLink} has another name (a hard link)` }
    for (const path of [...this.nested, ...linked, ...this.linked]) dirty.add(path)
    return { kind: 'paths', paths: fold(dirty, this.nested) }
  }

  /**
   * Keeps {@link linked} up to date from the paths a take hands out; a path that has just got
   * another name comes back (a link made inside the tree is an event on its new name only).
   */
  private async noteLinks(dirty: ReadonlySet<string>): Promise<string | undefined> {
    let found: string | undefined
    await Promise.all(
      [...dirty, ...this.linked].map(async (path) => {
        const info = await lstat(join(this.o.root, path)).catch(() => undefined)
        if (!info?.isFile() || info.nlink < 2) return void this.linked.delete(path)
        if (!this.linked.has(path)) found ??= path
        this.linked.add(path)
      }),
    )
    return found
  }

  /** Stops every watch and removes the fence folder. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.unwatchAll()
    await this.work.catch(() => undefined)
    if (this.fence) {
      await this.fence.close()
      watchingNow--
    }
  }

  private unwatchAll(): void {
    for (const handle of this.folders.values()) this.unwatch(handle)
    this.folders.clear()
  }

  private unwatch(handle: FSWatcher): void {
    handle.close()
    watchingNow--
  }

  private fail(reason: string, final: boolean): void {
    this.broken ??= { reason, final }
    this.unwatchAll()
  }

  /** Watches `folders` and everything under them not unwatched, level by level (one `unwatched` question per level). */
  private async walk(folders: string[], initial: boolean): Promise<void> {
    for (let level = folders; level.length > 0 && !this.broken && !this.closed; ) {
      const next: string[] = []
      await Promise.all(level.map(async (folder) => next.push(...(await this.watchFolder(folder)))))
      if (next.length === 0) break
      const skip = await this.o.unwatched(next, initial).catch((error: unknown) => {
        this.fail(`which folders are ignored could not be told (${error instanceof Error ? error.message : String(error)})`, false)
        return new Set<string>()
      })
      level = next.filter((folder) => !skip.has(folder))
    }
  }

  /** Watches one folder, then lists it (in that order: nothing made in between is missed); its subfolders to walk. */
  private async watchFolder(folder: string): Promise<string[]> {
    if (this.broken || this.closed || this.folders.has(folder)) return []
    if (this.folders.size >= this.o.maxFolders) {
      this.fail(`the project has more than ${this.o.maxFolders} folders to watch`, true)
      return []
    }
    const absolute = join(this.o.root, folder)
    let handle: FSWatcher
    try {
      handle = watch(absolute, { persistent: false, encoding: 'buffer' }, (type, name) => this.event(folder, handle, type, name))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Gone before it could be watched: its parent's event says so (or the first full scan reads it).
      if (code === 'ENOENT' || code === 'ENOTDIR') return []
      this.fail(`${folder || 'the project folder'} cannot be watched (${code ?? String(error)})`, code === 'ENOSPC' || code === 'EMFILE')
      return []
    }
    watchingNow++
    this.folders.set(folder, handle)
    handle.on('error', (error) => this.fail(`the watch of ${folder || 'the project folder'} failed (${error.message})`, false))
    const names = await readdir(absolute, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') this.fail(`${folder || 'the project folder'} cannot be read (${error.code ?? error.message})`, false)
      return []
    })
    if (names.some((entry) => entry.name.includes('\uFFFD'))) {
      this.fail(`a name in ${folder || 'the project folder'} is not UTF-8`, true)
      return []
    }
    if (folder && this.o.nested === 'boundary' && names.some((entry) => entry.name === '.git')) {
      this.becomeNested(folder)
      return []
    }
    // Which files have other names is needed by the next take, not by the walk (nor by the full
    // scan that follows a start): looked up beside them.
    const files = names.filter((entry) => entry.isFile())
    if (files.length > 0) {
      this.linking.push(
        Promise.all(
          files.map(async (entry) => {
            const path = folder ? `${folder}/${entry.name}` : entry.name
            if (((await lstat(join(absolute, entry.name)).catch(() => undefined))?.nlink ?? 1) > 1) this.linked.add(path)
          }),
        ),
      )
    }
    return names.filter((entry) => entry.isDirectory() && entry.name !== '.git').map((entry) => (folder ? `${folder}/${entry.name}` : entry.name))
  }

  private becomeNested(folder: string): void {
    this.unwatchUnder(folder)
    this.nested.add(folder)
    this.dirty.add(folder)
  }

  private event(folder: string, handle: FSWatcher, type: string, raw: Buffer | null): void {
    eventsInProcess++
    // Once in doubt the next take reads everything and a new watcher walks the tree: nothing
    // more needs keeping (so a build that touches a million files costs no memory here).
    if (this.closed || this.doubt || this.folders.get(folder) !== handle) return
    if (this.dirty.size >= MAX_DIRTY) {
      this.doubt = `more than ${MAX_DIRTY} paths changed`
      this.dirty.clear()
      return
    }
    const name = raw?.toString('utf8')
    if (!raw || !name || !Buffer.from(name, 'utf8').equals(raw)) {
      this.doubt ??= 'a file event named no file, or a name that is not UTF-8'
      return
    }
    const path = folder ? `${folder}/${name}` : name
    if (name === '.gitignore' || name === '.gitattributes') this.doubt ??= `${path} changed`
    if (name === '.git') {
      if (!folder) this.doubt ??= 'the repository itself changed'
      else if (this.o.nested === 'boundary') this.becomeNested(folder)
      return
    }
    this.dirty.add(path)
    if (type !== 'rename') return
    // Made, deleted or moved (in or out): whatever was watched there is not there any more.
    this.unwatchUnder(path)
    this.work = this.work.then(() => this.appeared(path)).catch((error: unknown) => this.fail(`a new folder could not be watched (${String(error)})`, false))
  }

  /** A path that was made or moved in: watched and walked when it is a folder (not a link to one). */
  private async appeared(path: string): Promise<void> {
    if (this.broken || this.closed || this.folders.has(path)) return
    const info = await lstat(join(this.o.root, path)).catch(() => undefined)
    if (!info?.isDirectory()) return
    if ((await this.o.unwatched([path], false)).has(path)) return
    await this.walk([path], false)
  }

  private unwatchUnder(path: string): void {
    for (const [folder, handle] of this.folders) {
      if (folder !== path && !folder.startsWith(`${path}/`)) continue
      this.unwatch(handle)
      this.folders.delete(folder)
    }
    // A nested repository moved or deleted is found again by the walk if it is still one.
    for (const folder of this.nested) if (folder === path || folder.startsWith(`${path}/`)) this.nested.delete(folder)
  }
}
