import { AppError } from '../../shared/ipc/result'
import type { PermissionModeName } from '../../shared/ipc/contract'
import type { WorktreeInfo, WorktreeRemoval } from '../../shared/ipc/worktrees'
import type { WorktreeService } from './service'

/** What the desk needs from the sessions (the SessionManager, through the runtime). */
export interface WorktreeSessions {
  /** Starts a session in a folder (here: the new worktree). */
  create(projectPath: string): Promise<{ sessionId: string; mode?: PermissionModeName; autoModeOff?: boolean }>
  /** The folder a session (live or stored) belongs to; undefined when it is gone. */
  projectOf(sessionId: string): Promise<string | undefined>
  /** Stops a live session and closes it (nothing when it is not open). */
  close(sessionId: string): Promise<void>
}

/** A new session in its own worktree. */
export interface WorktreeSession {
  sessionId: string
  mode?: PermissionModeName
  autoModeOff?: boolean
  worktree: WorktreeInfo
  /** What to tell the user once (files `.worktreeinclude` skipped, a base that fell back). */
  notes: string[]
}

/**
 * The app's side of worktree sessions: starting a session in a new worktree (the "New session"
 * checkbox, `sous -p --worktree`), archiving a session (its worktree and branch go, refused while
 * they hold work the base lacks unless forced), and cleaning up worktrees whose session is gone.
 * The `worktrees.*` handlers and `session.create`'s `worktree` field call it.
 */
export class WorktreeDesk {
  constructor(readonly service: WorktreeService, private readonly sessions: WorktreeSessions) {}

  /**
   * Makes a worktree from `projectPath`'s repository, then a session in it, and gives the worktree
   * to that session. If the session cannot start, the new worktree is removed again.
   */
  async createSession(projectPath: string, options: { name?: string } = {}): Promise<WorktreeSession> {
    const created = await this.service.create(projectPath, { ...(options.name && { name: options.name }), owner: 'session' })
    let session: Awaited<ReturnType<WorktreeSessions['create']>>
    try {
      session = await this.sessions.create(created.info.path)
    } catch (error) {
      await this.service.remove(projectPath, created.info.path, { force: true, owner: created.info.sessionId ?? '' }).catch(() => undefined)
      throw error
    }
    const worktree = await this.service.claim(created.info, session.sessionId)
    const notes = [...created.notes, ...created.include.skipped.map((skip) => `.worktreeinclude: ${skip.path} was not copied: ${skip.why}.`)]
    return { ...session, worktree, notes }
  }

  /**
   * Archives a session that works in a worktree: refused (nothing changes, the answer says what
   * would be lost) while the worktree has uncommitted files or commits the base lacks, unless
   * `force`; otherwise the session is stopped and closed, and its worktree and branch removed.
   * Its transcript stays (the conversation can still be read).
   */
  async archive(sessionId: string, force = false): Promise<WorktreeRemoval> {
    const projectPath = await this.sessions.projectOf(sessionId)
    if (!projectPath) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    const worktree = await this.service.activeFor(sessionId, projectPath)
    if (!worktree) throw new AppError('NOT_FOUND', 'This session does not work in a worktree: there is nothing to archive.')
    if (!force) {
      const loss = await this.service.loss(projectPath, worktree.path)
      if (loss.uncommitted.length > 0 || loss.commits.length > 0) return { removed: false, path: worktree.path, branch: worktree.branch, loss }
    }
    await this.sessions.close(sessionId)
    return this.service.remove(worktree.repoRoot, worktree.path, { force, owner: sessionId })
  }

  /** Removes worktrees listed for cleanup (their session gone, or not made by Sous); each answered on its own. */
  async cleanup(projectPath: string, paths: readonly string[], force = false): Promise<WorktreeRemoval[]> {
    const results: WorktreeRemoval[] = []
    for (const path of paths) results.push(await this.service.remove(projectPath, path, { force }))
    return results
  }
}
