import { join } from 'node:path'
import { ChangeFeed, type WatchTuning } from './change-feed'
import { ContentStore } from './content-store'
import { GitStore } from './git-store'
import { checkpointRef, checkpointsDir, indexPath, pinnedConfigPath, type ScanReport, type TreeEntries, type TreeState } from './types'
import { contentPolicy, gitPolicy } from './watch-policy'

/** Where a workspace records from, and whether it watches the tree between snapshots. */
export interface WorkspaceOptions {
  home: string
  sessionId: string
  projectPath: string
  env: NodeJS.ProcessEnv
  /**
   * Watch the tree, so a snapshot reads only what changed (a recording session's workspace; a
   * one-off reader's has no use for it). Linux only: elsewhere every snapshot reads everything.
   * An object tunes the limits (tests).
   */
  watch?: boolean | Partial<WatchTuning>
}

/**
 * One session's way to record and read its workspace: git plumbing in a repository, the content
 * store elsewhere (and in a repository whose own configuration could make git run programs).
 * Which one is decided once, on first use. A watching workspace feeds each snapshot the paths
 * changed since the previous one ({@link ChangeFeed}); `close` stops the watcher.
 */
export class Workspace {
  private opening: Promise<GitStore | undefined> | undefined
  readonly content: ContentStore
  private feed: ChangeFeed | undefined
  private closed = false
  /** How the latest snapshot read the tree (tests and the bench ask). */
  lastScan: ScanReport | undefined

  constructor(readonly o: WorkspaceOptions) {
    this.content = new ContentStore(o.home)
  }

  /** The git store, or undefined when the content store serves this folder. */
  git(): Promise<GitStore | undefined> {
    this.opening ??= GitStore.open(this.o.projectPath, this.o.env, pinnedConfigPath(this.o.home, this.o.sessionId)).then((store) => ('reason' in store ? undefined : store))
    return this.opening
  }

  /**
   * Records the workspace now; a `missing` state (with why) when that fails. Never throws.
   * `read` is called once the working tree has been read (in git, before the tree object is
   * written from the private index), unless the snapshot failed before that.
   */
  async snapshot(read?: () => void): Promise<TreeState> {
    let feed: ChangeFeed | undefined
    try {
      const git = await this.git()
      const indexFile = indexPath(this.o.home, this.o.sessionId)
      feed = this.watching(git, indexFile)
      const changes = feed ? await feed.next() : undefined
      let state: TreeState
      if (git) {
        const taken = await git.snapshot(indexFile, checkpointRef(this.o.sessionId), changes, read)
        ;[state, this.lastScan] = [taken.state, taken.scan]
      } else {
        let told = false
        const tell = read && (() => {
          told = true
          read()
        })
        const taken = await this.content.snapshot(this.o.projectPath, changes, tell)
        ;[state, this.lastScan] = [{ kind: 'content', root: this.o.projectPath, manifest: taken.manifest }, taken.scan]
        if (!told) read?.()
      }
      feed?.done(true, this.lastScan.kind === 'full')
      return state
    } catch (error) {
      // What the feed handed out is lost with the failed snapshot: the next one reads everything.
      feed?.done(false, false)
      this.lastScan = undefined
      return { kind: 'missing', reason: error instanceof Error ? error.message : String(error) }
    }
  }

  /** The change feed of a watching workspace (made on the first snapshot), for the store in use. */
  private watching(git: GitStore | undefined, indexFile: string): ChangeFeed | undefined {
    if (!this.o.watch || this.closed || process.platform !== 'linux') return undefined
    if (!this.feed) {
      const tuning = typeof this.o.watch === 'object' ? this.o.watch : {}
      const policy = git ? gitPolicy(git, indexFile) : contentPolicy(this.o.projectPath)
      this.feed = new ChangeFeed(policy, join(checkpointsDir(this.o.home), 'watch'), tuning)
    }
    return this.feed
  }

  /** Stops watching the tree (a closed workspace still reads; its snapshots read everything). */
  async close(): Promise<void> {
    this.closed = true
    await this.feed?.close()
    this.feed = undefined
  }

  /** The files of a recorded state (and the paths it left out as too large). Throws when the store cannot read it. */
  async entries(state: TreeState): Promise<{ entries: TreeEntries; skipped: Set<string> }> {
    if (state.kind === 'missing') throw new Error(`no snapshot was recorded (${state.reason})`)
    if (state.kind === 'content') return this.content.entries(state.manifest)
    const git = await this.git()
    if (!git) throw new Error('the folder is no longer a git repository Sous can read')
    return { entries: await git.entries(state.tree), skipped: new Set() }
  }

  /** Paths that differ between two recorded states (none when they are the same tree). Throws when one cannot be read. */
  async diff(a: TreeState, b: TreeState): Promise<string[]> {
    if (stateKey(a) === stateKey(b)) return []
    const git = a.kind === 'git' && b.kind === 'git' ? await this.git() : undefined
    if (git && a.kind === 'git' && b.kind === 'git') return git.changedPaths(a.tree, b.tree)
    return changedPaths((await this.entries(a)).entries, (await this.entries(b)).entries)
  }

  /** Blob contents for a state's kind of store. */
  async blobs(kind: 'git' | 'content', ids: readonly string[]): Promise<{ contents: Map<string, Buffer>; missing: string[] }> {
    if (kind === 'content') return this.content.blobs(ids)
    const git = await this.git()
    if (!git) return { contents: new Map(), missing: [...ids] }
    return git.blobs(ids)
  }

  /** Resolves once the snapshots' commits (which keep their trees reachable) are written. */
  async flush(): Promise<void> {
    const git = this.opening ? await this.opening : undefined
    await Promise.all([git?.flush(), this.content.flush()])
  }

  /** The user's HEAD now, in a repository. */
  async head(): Promise<string | null | undefined> {
    const git = await this.git()
    return git ? git.head() : undefined
  }
}

/** What identifies a state's files: its tree or manifest id. */
export function stateKey(state: TreeState): string {
  return state.kind === 'git' ? `git:${state.tree}` : state.kind === 'content' ? `content:${state.manifest}` : `missing:${state.reason}`
}

/** Paths whose entry differs between two states' files (added, removed or changed). */
export function changedPaths(a: TreeEntries, b: TreeEntries): string[] {
  const out: string[] = []
  for (const [path, entry] of a) {
    const other = b.get(path)
    if (!other || other.id !== entry.id || other.mode !== entry.mode) out.push(path)
  }
  for (const path of b.keys()) if (!a.has(path)) out.push(path)
  return out.sort()
}
