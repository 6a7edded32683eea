import { join } from 'node:path'
import { AppError } from '../../../shared/ipc/result'
import { git } from '../merge/git'

/** A new session in a new worktree of the project. */
export interface WorktreeSession {
  sessionId: string
  /** The worktree's folder, its name and its branch. */
  worktree: string
  name: string
  branch: string
}

/**
 * Opens a session in a new worktree: what Run on N asks N times. The worktree-session engine
 * (`sous -p --worktree`, the New-session checkbox) provides the real one; {@link plainWorktreeStarter}
 * stands in where it is not wired.
 */
export interface WorktreeStarter {
  start(projectPath: string, name: string): Promise<WorktreeSession>
}

/** What {@link worktreeDeskStarter} needs of the worktree-session engine (`worktrees/desk.ts`). */
export interface WorktreeSessionMaker {
  createSession(projectPath: string, options: { name?: string }): Promise<{ sessionId: string; worktree: { name: string; path: string; branch: string } }>
}

/**
 * The real starter: the worktree-session engine's `createSession` (Claude Code's layout and
 * branch names, `worktree.baseRef`, `.worktreeinclude`, sparse paths, the registry that keeps two
 * sessions from sharing a worktree, the session opened in it — and the worktree removed again
 * when the session cannot start).
 */
export function worktreeDeskStarter(desk: WorktreeSessionMaker): WorktreeStarter {
  return {
    async start(projectPath, name) {
      const made = await desk.createSession(projectPath, { name })
      return { sessionId: made.sessionId, worktree: made.worktree.path, name: made.worktree.name, branch: made.worktree.branch }
    },
  }
}

/**
 * A starter over plain git: `git worktree add -b worktree-<name> .claude/worktrees/<name> HEAD`,
 * then a session opened in that folder, for a host without the worktree-session engine.
 */
export function plainWorktreeStarter(create: (projectPath: string) => Promise<{ sessionId: string }>, env?: NodeJS.ProcessEnv): WorktreeStarter {
  return {
    async start(projectPath, name) {
      const worktree = join(projectPath, '.claude', 'worktrees', name)
      const branch = `worktree-${name}`
      const added = await git(['worktree', 'add', '-q', '-b', branch, worktree, 'HEAD'], { cwd: projectPath, ...(env && { env }) })
      if (!added.ok) throw new AppError('CONFLICT', `Could not create the worktree ${name}: ${added.error}`)
      const { sessionId } = await create(worktree)
      return { sessionId, worktree, name, branch }
    },
  }
}
