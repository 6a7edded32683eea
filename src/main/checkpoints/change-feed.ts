import { readFileSync } from 'node:fs'
import { TreeWatcher } from './tree-watcher'

/** What a snapshot must read: everything (with why), or only these paths (relative, folded). */
export type Changes = { kind: 'all'; reason: string } | { kind: 'paths'; paths: string[] }

/** What one store tells the feed about its tree. */
export interface FeedPolicy {
  /** The tree's top folder (absolute). */
  root: string
  /** See {@link TreeWatcherOptions.nested}. */
  nested: 'boundary' | 'enter'
  /** Called before each watcher starts: read the ignore rules afresh. */
  prepare(): Promise<void>
  /** See {@link TreeWatcherOptions.unwatched}. */
  unwatched(folders: string[], initial: boolean): Promise<Set<string>>
  /** Why rules kept outside the tree (git's excludes and configuration) changed since `prepare`; undefined when they did not. */
  rulesChanged?(): Promise<string | undefined>
}

/** The feed's limits (tests lower them to prove each fallback). */
export interface WatchTuning {
  /** Folders one watcher may watch before the session gives up watching. */
  maxFolders: number
  /** Events between two snapshots past which some may have been dropped. */
  maxEvents: number
  /** Changed paths past which a full scan is as cheap. */
  maxPaths: number
  /** A full scan at least this often, for what inotify cannot see (a write through a hard link from outside, a memory-mapped write). */
  fullEveryMs: number
  now(): number
}

/** The defaults: half the kernel's event queue, 20,000 folders, 1,000 paths, a full scan every 10 minutes. */
export function defaultTuning(): WatchTuning {
  let queued = 16_384
  try {
    queued = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()) || queued
  } catch {
    // Not Linux (or no /proc): the kernel's usual default.
  }
  return { maxFolders: 20_000, maxEvents: Math.floor(queued / 2), maxPaths: 1_000, fullEveryMs: 10 * 60_000, now: () => Date.now() }
}

/**
 * Tells a session's snapshots what changed since the previous one, so a snapshot reads only
 * that — or says "read everything" whenever there is any doubt: the first snapshot (the watcher
 * starts before it, so nothing made during the scan is missed), a watcher that broke or cannot
 * start, a take that cannot vouch for its paths (see {@link TreeWatcher}), ignore rules changed
 * (in the tree or, for git, outside it), a snapshot that failed (what it took is lost), too many
 * paths, and at least every {@link WatchTuning.fullEveryMs}. After any doubt the watcher is
 * started afresh (walked again) before the full scan. A watcher that hit a limit (the kernel's
 * watches, our folder cap) is not started again: every snapshot of the session is then full.
 *
 * Contract: `next` and `done` alternate, one snapshot at a time (the recorder's chain).
 */
export class ChangeFeed {
  private watcher: TreeWatcher | undefined
  private gaveUp: string | undefined
  private lastFull: number | undefined
  private failed = false
  private closed = false
  /** Why the last start left no watcher (tried again at the next snapshot). */
  private notStarted: string | undefined

  constructor(
    private readonly policy: FeedPolicy,
    private readonly fenceParent: string,
    tuning: Partial<WatchTuning> = {},
  ) {
    this.tuning = { ...defaultTuning(), ...tuning }
  }

  private readonly tuning: WatchTuning

  /** What the next snapshot must read. */
  async next(): Promise<Changes> {
    const doubt = await this.doubt()
    if (doubt) {
      await this.restart()
      return { kind: 'all', reason: doubt }
    }
    const taken = await this.watcher!.take()
    if (taken.kind === 'unknown') {
      await this.restart()
      return { kind: 'all', reason: taken.reason }
    }
    if (taken.paths.length > this.tuning.maxPaths) return { kind: 'all', reason: `${taken.paths.length} paths changed` }
    return taken
  }

  /** The snapshot made from the last answer ended: `ok` whether it was recorded, `whole` whether it read everything. */
  done(ok: boolean, whole: boolean): void {
    this.failed = !ok
    if (ok && whole) this.lastFull = this.tuning.now()
  }

  /** Why the feed will not say what changed (undefined once a watcher is running). */
  get unwatched(): string | undefined {
    return this.gaveUp ?? this.watcher?.broken?.reason
  }

  /** Stops the watcher. */
  async close(): Promise<void> {
    this.closed = true
    await this.watcher?.close()
    this.watcher = undefined
  }

  private async doubt(): Promise<string | undefined> {
    if (this.closed) return 'the session closed'
    if (this.gaveUp) return `no file watcher: ${this.gaveUp}`
    if (!this.watcher) return this.notStarted ?? 'the first snapshot'
    if (this.lastFull === undefined) return 'the first snapshot'
    if (this.watcher.broken) return `the file watcher stopped: ${this.watcher.broken.reason}`
    if (this.failed) return 'the previous snapshot failed'
    if (this.tuning.now() - this.lastFull >= this.tuning.fullEveryMs) return 'the periodic full scan'
    return this.policy.rulesChanged?.().catch((error: unknown) => `the ignore rules could not be checked (${String(error)})`)
  }

  private async restart(): Promise<void> {
    await this.watcher?.close()
    this.watcher = undefined
    if (this.gaveUp || this.closed) return
    try {
      await this.policy.prepare()
    } catch (error) {
      // Without the rules the watcher could skip a folder it must watch: no watcher this time.
      this.notStarted = `the ignore rules could not be read (${error instanceof Error ? error.message : String(error)})`
      return
    }
    const { maxFolders, maxEvents } = this.tuning
    const watcher = await TreeWatcher.start({ root: this.policy.root, nested: this.policy.nested, unwatched: (folders, initial) => this.policy.unwatched(folders, initial), fenceParent: this.fenceParent, maxFolders, maxEvents })
    if (this.closed) return void (await watcher.close())
    if (watcher.broken) {
      if (watcher.broken.final) this.gaveUp = watcher.broken.reason
      this.notStarted = `the file watcher could not start: ${watcher.broken.reason}`
      await watcher.close()
      return
    }
    this.notStarted = undefined
    this.watcher = watcher
  }
}
