import { open } from 'node:fs/promises'
import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { UserTaskEdits } from '../../runtime/user-task-edits'
import type { Handlers } from '../router'

/** What the task panel's and the plan viewer's handlers need (the session runtime has both). */
export interface TaskHandlerDeps {
  /** A live session's task list as the user changes it. */
  userTasks(sessionId: string): UserTaskEdits | undefined
  /** Where a session's plan file is; undefined for an id that is no session id. */
  planFile(sessionId: string): string | undefined
  /** Resumes a stored session whose list the panel asks for (after a restart). */
  sessions?: Pick<SessionService, 'resume'>
}

/** The plan viewer reads at most this much of a plan file. */
const PLAN_LIMIT = 1024 * 1024

/**
 * `tasks.*` and `plan.read`. A stored session that is not open is resumed first, so the list comes
 * from the session's own store and a change reaches its model; without an agent every channel
 * answers UNAVAILABLE.
 */
export function taskHandlers(deps: TaskHandlerDeps | undefined): Pick<Handlers, 'tasks.list' | 'tasks.create' | 'tasks.update' | 'tasks.delete' | 'tasks.move' | 'plan.read'> {
  const edits = async (sessionId: string): Promise<UserTaskEdits> => {
    if (!deps) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    const live = deps.userTasks(sessionId)
    if (live) return live
    if (!deps.sessions) throw new AppError('NOT_FOUND', `No open session ${sessionId}.`)
    await deps.sessions.resume(sessionId)
    const resumed = deps.userTasks(sessionId)
    if (!resumed) throw new AppError('UNAVAILABLE', 'This session has no task list.')
    return resumed
  }
  return {
    'tasks.list': async ({ sessionId }) => (await edits(sessionId)).list(),
    'tasks.create': async ({ sessionId, ...input }) => (await edits(sessionId)).create(input),
    'tasks.update': async ({ sessionId, taskId, ...patch }) => (await edits(sessionId)).update(taskId, patch),
    'tasks.delete': async ({ sessionId, taskId }) => (await edits(sessionId)).remove(taskId),
    'tasks.move': async ({ sessionId, taskId, beforeId }) => (await edits(sessionId)).move(taskId, beforeId),
    'plan.read': async ({ sessionId }) => {
      const path = deps?.planFile(sessionId)
      if (!path) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
      return readPlan(path)
    },
  }
}

/** The first megabyte of the plan file; a missing file is NOT_FOUND, an unreadable one says why. */
async function readPlan(path: string): Promise<{ path: string; text: string; truncated: boolean }> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new AppError('NOT_FOUND', `The agent has not saved a plan for this session yet (${path}).`)
    throw new AppError('UNAVAILABLE', `The plan file ${path} cannot be read (${code ?? String(error)}).`)
  }
  try {
    const buffer = Buffer.alloc(PLAN_LIMIT + 1)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const truncated = bytesRead > PLAN_LIMIT
    return { path, text: buffer.subarray(0, Math.min(bytesRead, PLAN_LIMIT)).toString('utf8'), truncated }
  } finally {
    await handle.close()
  }
}
