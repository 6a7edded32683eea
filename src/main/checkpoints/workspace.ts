import { ContentStore } from './content-store'
import { GitStore } from './git-store'
import { checkpointRef, indexPath, type TreeEntries, type TreeState } from './types'

/**
 * One session's way to record and read its workspace: git plumbing in a repository, the content
 * store elsewhere (and in a repository whose own configuration could make git run programs).
 * Which one is decided once, on first use.
 */
export class Workspace {
  private opening: Promise<GitStore | undefined> | undefined
  readonly content: ContentStore

  constructor(
    readonly o: { home: string; sessionId: string; projectPath: string; env: NodeJS.ProcessEnv },
  ) {
    this.content = new ContentStore(o.home)
  }

  /** The git store, or undefined when the content store serves this folder. */
  git(): Promise<GitStore | undefined> {
    this.opening ??= GitStore.open(this.o.projectPath, this.o.env).then((store) => ('reason' in store ? undefined : store))
    return this.opening
  }

  /** Records the workspace now; a `missing` state (with why) when that fails. Never throws. */
  async snapshot(): Promise<TreeState> {
    try {
      const git = await this.git()
      if (git) return await git.snapshot(indexPath(this.o.home, this.o.sessionId), checkpointRef(this.o.sessionId))
      return { kind: 'content', root: this.o.projectPath, manifest: await this.content.snapshot(this.o.projectPath) }
    } catch (error) {
      return { kind: 'missing', reason: error instanceof Error ? error.message : String(error) }
    }
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
    await git?.flush()
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
