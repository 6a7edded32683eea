import { AppError } from '../../shared/ipc/result'
import type { WorktreeAvailability, WorktreeInfo, WorktreeLoss, WorktreeOwner, WorktreeRemoval, WorktreeRow } from '../../shared/ipc/worktrees'
import { worktreeLoss } from './changes'
import { createWorktree, lockReason, type CreatedWorktree } from './create'
import { git } from './git'
import { checkGit, type GitCheck } from './git-version'
import { isInside, isManagedWorktreeFolder, worktreesDir } from './location'
import { WorktreeRegistry, WorktreeTakenError } from './registry'
import { removeWorktree } from './remove'
import { withWorktreeLock } from './repo-lock'
import { findRepository, unsafeRepositoryKeys, type Repository } from './repository'
import { readWorktreeSettings } from './settings'
import { listGitWorktrees } from './git-list'

/** Where a session stands, as the worktree list shows it. */
export type SessionPresence = 'live' | 'stored' | 'gone'

/** What the service needs from its host. */
export interface WorktreeServiceOptions {
  /** `$SOUS_HOME`: the registry lives under its `projects/`. */
  home: string
  /** The environment git runs with (the process's by default; tests pass a PATH without git). */
  env?: NodeJS.ProcessEnv
  /** The managed settings file (tests point it into a temp folder). */
  managedSettingsPath?: string
  /** Whether a session is open in this process, stored on disk, or gone (default: every one gone). */
  presence?: (sessionId: string) => Promise<SessionPresence>
}

/** What {@link WorktreeService.create} takes. */
export interface CreateOptions {
  /** The worktree name; a random one when absent. */
  name?: string
  owner: WorktreeOwner
  sessionId?: string
  agentId?: string
  /**
   * false: leave it unlocked, because {@link WorktreeService.claim} locks it for the session about
   * to start (one git run instead of three). Default true.
   */
  lock?: boolean
}

/**
 * Worktrees for sessions (issue 27, parts 1 and 5): whether a folder can have them, making one
 * (Claude Code's layout and settings, `.worktreeinclude`, a lock naming its session), the registry
 * of whose each is, what removing one would lose, and removal that refuses to lose work unless
 * forced. Every method takes a folder of the project (the main checkout or a worktree) and works
 * on its repository's main checkout. Expected failures are `AppError`s with the sentence to show:
 * `UNAVAILABLE` (no git, too old, not a repository), `INVALID_INPUT` (a bad name, a bad setting),
 * `CONFLICT` (held by another session, refused configuration), `NOT_FOUND`.
 */
export class WorktreeService {
  readonly registry: WorktreeRegistry
  private gitCheck: Promise<GitCheck> | undefined

  constructor(private readonly options: WorktreeServiceOptions) {
    this.registry = new WorktreeRegistry(options.home)
  }

  /** Whether worktrees can be made for `projectPath` (the "said once" notice reads its `message`). */
  async availability(projectPath: string): Promise<WorktreeAvailability> {
    const checked = await this.inspect(projectPath)
    return checked.ok ? { available: true, gitVersion: checked.gitVersion, repoRoot: checked.repository.root } : checked.availability
  }

  /** The checks of {@link availability}, keeping the repository they found (one lookup per request). */
  private async inspect(projectPath: string): Promise<{ ok: true; repository: Repository; gitVersion: string } | { ok: false; availability: Extract<WorktreeAvailability, { available: false }> }> {
    const checked = await this.git()
    if (!checked.ok) return { ok: false, availability: { available: false, reason: checked.reason === 'missing' ? 'git-missing' : checked.reason === 'too-old' ? 'git-too-old' : 'git-broken', message: checked.message } }
    const found = await findRepository(projectPath, this.options.env)
    if (!found.ok) return { ok: false, availability: { available: false, reason: found.reason === 'git-missing' ? 'git-missing' : 'not-a-repository', message: found.message } }
    const unsafe = await unsafeRepositoryKeys(found.repository, this.options.env)
    if (unsafe.length > 0) return { ok: false, availability: { available: false, reason: 'unsafe-config', message: unsafeMessage(unsafe) } }
    return { ok: true, repository: found.repository, gitVersion: checked.version }
  }

  /**
   * Makes a worktree for `projectPath`'s repository and records it. Throws `AppError`
   * (UNAVAILABLE, INVALID_INPUT, CONFLICT) with the sentence to show; nothing is left behind.
   */
  async create(projectPath: string, options: CreateOptions): Promise<CreatedWorktree> {
    const repository = await this.repository(projectPath)
    const settings = await readWorktreeSettings(repository.root, { sousHome: this.options.home, ...(this.options.managedSettingsPath && { managedPath: this.options.managedSettingsPath }) })
    if (!settings.ok) throw new AppError('INVALID_INPUT', settings.message)
    let created: CreatedWorktree
    try {
      created = await withWorktreeLock(this.options.home, repository.root, () => createWorktree({ repository, settings: settings.settings, ...options, ...(this.options.env && { env: this.options.env }) }))
    } catch (error) {
      throw new AppError('INVALID_INPUT', (error as Error).message)
    }
    await this.registry.put(created.info)
    return created
  }

  /**
   * Gives a worktree to a session (after the session got its id): the registry and git's lock both
   * name it. `info.sessionId` is the holder the caller saw (undefined: none); if another session
   * took the worktree since — another process, say — the claim is refused (`CONFLICT`) and
   * nothing changes, so two sessions never share a worktree.
   */
  async claim(info: WorktreeInfo, sessionId: string, options: { fresh?: boolean } = {}): Promise<WorktreeInfo> {
    const call = { cwd: info.repoRoot, ...(this.options.env && { env: this.options.env }) }
    let claimed: WorktreeInfo
    try {
      // The registry first: its compare-and-set under the lock decides who gets it.
      claimed = await this.registry.claim(info, sessionId, info.sessionId)
    } catch (error) {
      if (error instanceof WorktreeTakenError) throw new AppError('CONFLICT', error.message)
      throw error
    }
    // A worktree made for a session not yet started was left unlocked (see create's `lock`); one
    // taken over (EnterWorktree {path}) carries the old holder's lock.
    await withWorktreeLock(this.options.home, info.repoRoot, async () => {
      if (info.sessionId !== undefined || !options.fresh) await git(['worktree', 'unlock', '--', info.path], call)
      await git(['worktree', 'lock', '--reason', lockReason(info.owner, sessionId, info.agentId), '--', info.path], call)
    })
    return claimed
  }

  /** Updates a record (EnterWorktree / ExitWorktree flip `active`). */
  async update(info: WorktreeInfo): Promise<void> {
    await this.registry.put(info)
  }

  /** The record of the worktree at `path` (real path, as created), if Sous made it. */
  async recordAt(path: string): Promise<WorktreeInfo | undefined> {
    const found = await findRepository(path, this.options.env)
    if (!found.ok) return undefined
    return (await this.registry.list(found.repository.root)).find((item) => item.path === found.repository.top || item.path === path)
  }

  /** The worktree a session works in now: the one it started in, or the one it entered and did not leave. */
  async activeFor(sessionId: string, projectPath: string): Promise<WorktreeInfo | undefined> {
    const found = await findRepository(projectPath, this.options.env)
    if (!found.ok) return undefined
    const all = await this.registry.list(found.repository.root)
    return all.find((item) => item.sessionId === sessionId && item.path === found.repository.top) ?? all.find((item) => item.sessionId === sessionId && item.owner === 'entered' && item.active === true)
  }

  /** Every worktree of a session (started in, entered, its agents'). */
  async ofSession(sessionId: string, projectPath: string): Promise<WorktreeInfo[]> {
    const found = await findRepository(projectPath, this.options.env)
    if (!found.ok) return []
    return (await this.registry.list(found.repository.root)).filter((item) => item.sessionId === sessionId)
  }

  /** The worktrees under the repository's `.claude/worktrees` and Sous's records, with their sessions' state. */
  async list(projectPath: string): Promise<WorktreeRow[]> {
    const found = await findRepository(projectPath, this.options.env)
    if (!found.ok) return []
    const { root } = found.repository
    const records = await this.registry.list(root)
    const listed = await withWorktreeLock(this.options.home, root, () => listGitWorktrees(root, this.options.env))
    const rows: WorktreeRow[] = []
    for (const record of records) {
      const seen = listed.find((item) => item.path === record.path)
      const presence = record.sessionId ? await (this.options.presence?.(record.sessionId) ?? Promise.resolve<SessionPresence>('gone')) : 'gone'
      const state = !seen ? 'missing' : presence === 'gone' ? 'orphan' : presence
      rows.push({ ...record, state, ...(seen?.locked !== undefined && { locked: seen.locked }) })
    }
    const dir = worktreesDir(root)
    for (const item of listed) {
      if (records.some((record) => record.path === item.path) || !isInside(item.path, dir) || item.path === dir) continue
      rows.push({ name: item.path.slice(dir.length + 1), path: item.path, branch: item.branch ?? '', repoRoot: root, baseCommit: item.head, baseRef: 'HEAD', owner: 'session', createdAt: '', state: 'unregistered', ...(item.locked !== undefined && { locked: item.locked }) })
    }
    return rows
  }

  /** What removing the worktree at `path` would lose. */
  async loss(projectPath: string, path: string): Promise<WorktreeLoss> {
    const row = await this.row(projectPath, path)
    return worktreeLoss(row, this.options.env)
  }

  /**
   * Removes a worktree and its branch, and forgets it. Refuses (`removed: false`) while it holds
   * work the base lacks unless `force`. The caller says whose it is: `owner` is the session asking
   * (its own worktree), or undefined for cleanup, which only takes rows listed as orphan,
   * unregistered or missing.
   */
  async remove(projectPath: string, path: string, options: { force?: boolean; owner?: string } = {}): Promise<WorktreeRemoval> {
    const row = await this.row(projectPath, path)
    if (options.owner !== undefined ? row.sessionId !== options.owner : !['orphan', 'unregistered', 'missing'].includes(row.state)) {
      throw new AppError('CONFLICT', `The worktree at ${path} belongs to ${row.sessionId ? `session ${row.sessionId}` : 'another session'}, which is still there: archive that session instead.`)
    }
    if (row.state !== 'missing' && !(await isManagedWorktreeFolder(row.repoRoot, row.path))) throw new AppError('CONFLICT', `${path} is not a folder of .claude/worktrees: it is not removed.`)
    let result: WorktreeRemoval
    try {
      result = await withWorktreeLock(this.options.home, row.repoRoot, () => removeWorktree(row, { ...(options.force && { force: true }), ...(this.options.env && { env: this.options.env }) }))
    } catch (error) {
      throw new AppError('CONFLICT', (error as Error).message)
    }
    if (result.removed) await this.registry.forget(row.repoRoot, row.path)
    return result
  }

  private async row(projectPath: string, path: string): Promise<WorktreeRow> {
    const row = (await this.list(projectPath)).find((item) => item.path === path)
    if (!row) throw new AppError('NOT_FOUND', `No worktree of this repository is at ${path}.`)
    return row
  }

  /** The repository of a folder that can have worktrees, or the AppError saying why not. */
  private async repository(projectPath: string): Promise<Repository> {
    const checked = await this.inspect(projectPath)
    if (!checked.ok) throw new AppError(checked.availability.reason === 'unsafe-config' ? 'CONFLICT' : 'UNAVAILABLE', checked.availability.message)
    return checked.repository
  }

  /** git is checked once per service (the process's PATH does not change under it). */
  private git(): Promise<GitCheck> {
    this.gitCheck ??= checkGit(this.options.env)
    return this.gitCheck
  }
}

function unsafeMessage(keys: readonly string[]): string {
  return `This repository's own git configuration sets ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? '…' : ''}, which can run programs when files are checked out; Sous does not make worktrees in it. Remove those keys from .git/config if you trust them elsewhere, or make the worktree yourself with git worktree add.`
}
