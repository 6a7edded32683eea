import { copyFile, lstat, mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { outsideAnyRepository } from '../base/git-discovery'
import { unsafeKeys } from '../context/git-status'
import type { Changes } from './change-feed'
import { gitText, runGit, type GitCall } from './git'
import { ConfigPin, globalConfigMark } from './git-config'
import { addChangedPaths, ignoredFolders } from './git-paths'
import { MAX_FILE_BYTES, type ScanReport, type TreeEntries, type TreeState } from './types'

/**
 * Snapshots of a git working tree with git plumbing only: a private temporary index
 * (`GIT_INDEX_FILE` under `$SOUS_HOME`), `add -A`, `write-tree`, `commit-tree` onto
 * `refs/sous/checkpoints/<session>`. The user's index, HEAD, branches, stash and reflogs are
 * never written: objects go into the object store, and the only ref written is ours (without a
 * reflog). `.gitignore` is honoured as git honours it; a submodule is one gitlink entry.
 *
 * Incremental: the temporary index is kept between snapshots, so `add -A` re-reads only files
 * whose stat data changed. The first snapshot starts from a copy of the user's index (its stat
 * data spares re-hashing tracked files); an index git cannot use that way starts empty.
 *
 * Cheap: a snapshot's critical path is three git processes (`ls-files` for new large files,
 * `add -A`, `write-tree`); HEAD is read from the files git keeps it in (git itself when they are
 * not plain), and the commit that keeps the tree reachable (`commit-tree` + `update-ref`) is
 * made after the snapshot has answered, on a chain of its own, and only when the tree changed.
 * {@link GitStore.flush} waits for those commits.
 */
export class GitStore {
  private constructor(
    /** The working tree's top folder. */
    readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly userIndex: string,
    /** The worktree's git folder (its HEAD) and the common one (refs, packed-refs). */
    private readonly gitDirs: { own: string; common: string },
    /** `core.excludesFile` as configured (last one wins), for {@link ruleFiles}. */
    private excludesFile: string | undefined,
    /** The pinned user and system configuration every run reads (see `git-config.ts`). */
    private readonly pin: ConfigPin | undefined,
  ) {}

  /**
   * The store for `projectPath`'s repository; a reason when it is none or its configuration could
   * run programs. With `pinPath`, the user's and system's configuration as read now is pinned
   * there and every run of the store reads that copy (re-pinned when their files change and git
   * can read them), so a command that makes `~/.gitconfig` unreadable for a while cannot fail a
   * snapshot. With no `.git` above it, git is not asked at all (base/git-discovery.ts).
   */
  static async open(projectPath: string, env: NodeJS.ProcessEnv, pinPath?: string): Promise<GitStore | { reason: string; notRepository?: boolean }> {
    const call = { cwd: projectPath, env }
    const inside = (await outsideAnyRepository(projectPath, env)) ? undefined : await runGit(['rev-parse', '--is-inside-work-tree'], call)
    if (inside && !inside.ok && inside.missing) return { reason: 'git is not installed', notRepository: true }
    if (!inside?.ok || inside.stdout.toString().trim() !== 'true') return { reason: 'not a git working tree', notRepository: true }
    const marked = pinPath !== undefined ? await globalConfigMark(env) : undefined
    const config = await runGit(['config', '--list', '--show-scope', '--null'], call)
    if (!config.ok) return { reason: `the repository's configuration could not be read (${config.error})` }
    const unsafe = unsafeKeys(config.stdout.toString('utf8'))
    if (unsafe.length > 0) return { reason: `the repository's own configuration sets ${unsafe.slice(0, 3).join(', ')}, which can make git run programs` }
    const [root, userIndex, own, common] = (await gitText(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-path', 'index', '--git-dir', '--git-common-dir'], call)).split('\n')
    if (!root || !userIndex || !own || !common) return { reason: 'git did not name the working tree' }
    const pin = pinPath !== undefined && marked ? await ConfigPin.make(pinPath, env, config.stdout.toString('utf8'), marked.mark) : undefined
    return new GitStore(root, env, userIndex, { own, common }, configValue(config.stdout.toString('utf8'), 'core.excludesfile'), pin)
  }

  private call(indexFile?: string, input?: string | Buffer): GitCall {
    return { cwd: this.root, env: this.env, ...(indexFile !== undefined && { indexFile }), ...(input !== undefined && { input }), ...(this.pin && { config: this.pin.path }) }
  }

  /** Re-pins the user's configuration when it changed (see {@link ConfigPin.refresh}). */
  private async repin(): Promise<void> {
    const listing = await this.pin?.refresh(this.root)
    if (listing !== undefined) this.excludesFile = configValue(listing, 'core.excludesfile')
  }

  /** The commit HEAD names now (`null` on an unborn branch). */
  async head(): Promise<string | null> {
    const read = await this.headFromFiles().catch(() => undefined)
    if (read !== undefined) return read
    const out = await runGit(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], this.call())
    return out.ok ? out.stdout.toString().trim() : null
  }

  /**
   * HEAD without a git process: `HEAD` names a commit or a branch, whose loose ref or
   * `packed-refs` line names the commit. Undefined whenever that is not the plain case (a symref
   * to a symref, an odd file): git answers then.
   */
  private async headFromFiles(): Promise<string | null | undefined> {
    const id = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/
    const head = (await readFile(join(this.gitDirs.own, 'HEAD'), 'utf8')).trim()
    if (id.test(head)) return head
    const name = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1]
    if (!name || name.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined
    const loose = await readFile(join(this.gitDirs.common, name), 'utf8').then((text) => text.trim(), () => undefined)
    if (loose !== undefined) return id.test(loose) ? loose : undefined
    const packed = await readFile(join(this.gitDirs.common, 'packed-refs'), 'utf8').catch(() => '')
    for (const line of packed.split('\n')) {
      const [commit, ref] = line.split(' ')
      if (ref === name && commit && id.test(commit)) return commit
    }
    // No such branch yet: an unborn branch, as `rev-parse --verify` says with nothing.
    return null
  }

  /**
   * Records the working tree as a commit on `ref` (its parent the ref's previous commit).
   * `indexFile` is the session's private index, created on first use. With `changes` naming
   * paths (a watcher's), only those are read ({@link addChangedPaths}), and none means the tree
   * of the previous snapshot, without running git; that needs the private index to be the one
   * this store left (by its stat data), else — or when reading the paths fails — every file is
   * read, as with `changes` of kind `all`. `read` is called once the working tree (and HEAD) has
   * been read into the private index: what remains (`write-tree`) reads only that index, so a
   * caller may let the working tree change from then on. Throws on failure.
   */
  async snapshot(indexFile: string, ref: string, changes: Changes = { kind: 'all', reason: 'no file watcher' }, read?: () => void): Promise<{ state: Extract<TreeState, { kind: 'git' }>; scan: ScanReport }> {
    await this.repin()
    // HEAD as it is now, beside the files (a call may commit once `read` is called).
    const heading = this.head()
    heading.catch(() => undefined)
    await mkdir(dirname(indexFile), { recursive: true, mode: 0o700 })
    const fresh = !(await lstat(indexFile).then(() => true, () => false))
    let scan: ScanReport | undefined
    let reason = changes.kind === 'all' ? changes.reason : fresh ? 'no private index yet' : (await statMark(indexFile)) !== this.indexMark ? 'the private index was written by someone else' : undefined
    if (reason === undefined && changes.kind === 'paths') {
      if (changes.paths.length === 0 && this.lastTree !== undefined) scan = { kind: 'unchanged' }
      else {
        try {
          await addChangedPaths(this.call(indexFile), this.root, changes.paths)
          scan = { kind: 'paths', paths: changes.paths.length }
        } catch (error) {
          reason = `reading the changed paths failed (${error instanceof Error ? error.message : String(error)})`
        }
      }
    }
    if (!scan) {
      this.indexMark = undefined
      await this.addEverything(indexFile, fresh)
      scan = { kind: 'full', reason: reason ?? 'no file watcher' }
    }
    const head = await heading
    read?.()
    const tree = scan.kind === 'unchanged' ? this.lastTree! : await gitText(['write-tree'], this.call(indexFile))
    this.indexMark = await statMark(indexFile)
    // Off the critical path: the tree is written and is what the checkpoint names; its commit
    // only keeps it reachable (objects that no ref reaches are gc's to prune, after two weeks).
    if (this.lastTree !== tree) {
      this.lastTree = tree
      this.commits = this.commits.then(() => this.commitTree(ref, tree)).catch(() => undefined)
    }
    return { state: { kind: 'git', root: this.root, tree, head }, scan }
  }

  /** The private index's stat data when this store last wrote it (undefined: not known to be ours). */
  private indexMark: string | undefined

  /** `add -A` of the whole tree; a fresh index starts as a copy of the user's (its stat data spares re-hashing tracked files). */
  private async addEverything(indexFile: string, fresh: boolean): Promise<void> {
    if (fresh) await copyFile(this.userIndex, indexFile).catch(() => undefined)
    try {
      await this.addAll(indexFile)
    } catch (error) {
      // A copied index git cannot extend (a split index, an unknown extension): start from nothing.
      if (!fresh) throw error
      await rm(indexFile, { force: true })
      await this.addAll(indexFile)
    }
  }

  /** Folders of the tree no snapshot reads (see {@link ignoredFolders}), judged against the private index when there is one. */
  async ignoredFolders(indexFile: string, folders?: readonly string[]): Promise<Set<string>> {
    const exists = await lstat(indexFile).then(() => true, () => false)
    return ignoredFolders(exists ? this.call(indexFile) : this.call(), folders)
  }

  /**
   * Files outside the tree whose change can change what `add -A` reads: the repository's
   * excludes, attributes, sparse-checkout list and configuration, and the user's and system's
   * (`core.excludesFile` included). A watcher cannot see them; their stat data is compared.
   */
  ruleFiles(): string[] {
    const home = this.env['HOME'] ?? ''
    const xdg = this.env['XDG_CONFIG_HOME'] || join(home, '.config')
    const { own, common } = this.gitDirs
    const files = [join(common, 'info', 'exclude'), join(common, 'info', 'attributes'), join(common, 'info', 'sparse-checkout'), join(common, 'config'), join(own, 'config.worktree'), join(home, '.gitconfig'), join(xdg, 'git', 'config'), join(xdg, 'git', 'ignore'), join(xdg, 'git', 'attributes'), '/etc/gitconfig']
    if (this.excludesFile) files.push(this.excludesFile.startsWith('~/') ? join(home, this.excludesFile.slice(2)) : join(this.root, this.excludesFile))
    return files
  }

  /** Resolves once every commit asked for so far is on the ref (or failed: the tree is kept by the next one). */
  async flush(): Promise<void> {
    await this.commits
  }

  private commits: Promise<unknown> = Promise.resolve()
  /** The tree of the latest snapshot, so an unchanged tree makes no commit. */
  private lastTree: string | undefined

  /** Commits `tree` onto `ref` (its parent the ref's commit), unless the ref's commit has that tree already. */
  private async commitTree(ref: string, tree: string): Promise<void> {
    const last = this.last ?? (await this.readRef(ref))
    if (last?.tree === tree) return
    try {
      await this.commitOnto(ref, tree, last?.commit)
    } catch {
      // Another process (a `sous rewind` of this session) moved the ref since we last read it.
      await this.commitOnto(ref, tree, (await this.readRef(ref))?.commit)
    }
  }

  /** A commit of `tree` on top of `parent`, and `ref` moved to it only if it still names `parent`. */
  private async commitOnto(ref: string, tree: string, parent: string | undefined): Promise<string> {
    const commit = await gitText(['commit-tree', '--no-gpg-sign', tree, ...(parent ? ['-p', parent] : []), '-m', 'sous checkpoint'], this.call())
    await gitText(['update-ref', '--no-deref', ref, commit, parent ?? ''], this.call())
    this.last = { commit, tree }
    return commit
  }

  /** The latest commit on our ref and its tree (kept, so a commit asks git once less). */
  private last: { commit: string; tree: string } | undefined

  private async readRef(ref: string): Promise<{ commit: string; tree: string } | undefined> {
    const [commit, tree] = (await gitText(['for-each-ref', '--format=%(objectname) %(tree)', ref], this.call())).split(' ')
    this.last = commit && tree ? { commit, tree } : undefined
    return this.last
  }

  /** `add -A` into the private index, leaving out new files over the per-file cap. */
  private async addAll(indexFile: string): Promise<void> {
    const fresh = await gitText(['ls-files', '-z', '--others', '--exclude-standard'], this.call(indexFile))
    const excluded: string[] = []
    for (const path of fresh.split('\0').filter(Boolean)) {
      const info = await lstat(join(this.root, path)).catch(() => undefined)
      if (info?.isFile() && info.size > MAX_FILE_BYTES) excluded.push(`:(exclude,literal,top)${path}`)
    }
    await gitText(['add', '-A', '--ignore-errors', '--', ':/', ...excluded], this.call(indexFile))
  }

  /** Every entry of a tree, recursively (gitlinks as entries). */
  async entries(tree: string): Promise<TreeEntries> {
    const out = await runGit(['ls-tree', '-r', '-z', '--full-tree', tree], this.call())
    if (!out.ok) throw new Error(`the checkpoint's tree ${tree.slice(0, 12)} cannot be read (${out.error})`)
    const entries: TreeEntries = new Map()
    for (const line of out.stdout.toString('utf8').split('\0')) {
      if (!line) continue
      const tab = line.indexOf('\t')
      const [mode, , id] = line.slice(0, tab).split(' ')
      entries.set(line.slice(tab + 1), { mode: mode!, id: id! })
    }
    return entries
  }

  /** Paths that differ between two trees (git compares subtrees by id, so this reads only what changed). */
  async changedPaths(a: string, b: string): Promise<string[]> {
    const out = await runGit(['diff-tree', '-r', '-z', '--no-renames', '--name-only', a, b], this.call())
    if (!out.ok) throw new Error(`the trees ${a.slice(0, 12)} and ${b.slice(0, 12)} cannot be compared (${out.error})`)
    return out.stdout.toString('utf8').split('\0').filter(Boolean)
  }

  /** The contents of blobs by id; ids git does not have are listed in `missing`. */
  async blobs(ids: readonly string[]): Promise<{ contents: Map<string, Buffer>; missing: string[] }> {
    const contents = new Map<string, Buffer>()
    const missing: string[] = []
    if (ids.length === 0) return { contents, missing }
    const out = await runGit(['cat-file', '--batch'], this.call(undefined, `${ids.join('\n')}\n`))
    if (!out.ok) throw new Error(`git cat-file: ${out.error}`)
    const data = out.stdout
    let at = 0
    for (const id of ids) {
      const end = data.indexOf(0x0a, at)
      const header = data.subarray(at, end).toString('utf8').split(' ')
      at = end + 1
      if (header[1] === 'missing' || header.length < 3) {
        missing.push(id)
        continue
      }
      const size = Number(header[2])
      contents.set(id, data.subarray(at, at + size))
      at += size + 1
    }
    return { contents, missing }
  }
}

/** The last value of `key` (lower case) in `git config --list --show-scope --null` output (`scope\0key\nvalue\0`…). */
function configValue(listing: string, key: string): string | undefined {
  let value: string | undefined
  const fields = listing.split('\0')
  for (let at = 1; at < fields.length; at += 2) {
    const field = fields[at]!
    const newline = field.indexOf('\n')
    if (newline !== -1 && field.slice(0, newline).toLowerCase() === key) value = field.slice(newline + 1)
  }
  return value
}

/** A file's stat data as one string ('' when it is missing): what tells that someone else rewrote it. */
export async function statMark(path: string): Promise<string> {
  const info = await lstat(path).catch(() => undefined)
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : ''
}
