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

/**
 * A starter over plain git: `git worktree add -b worktree-<name> .claude/worktrees/<name> HEAD`,
 * then a session opened in that folder. Used until (and where) the worktree-session engine is
 * not wired in.
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
