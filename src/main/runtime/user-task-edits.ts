import { AppError } from '../../shared/ipc/result'
import type { TaskStatus } from '../store/tasks/task'
import type { TaskListing } from '../store/tasks/task-store'
import type { Task } from '../store/tasks/task'
import type { TaskListAccess } from '../tools/types'

/** Who the task list names as the author of a change made in the task panel. */
export const USER_ACTOR = 'user'

/** A change the user makes to a task (the panel's edit form, its checkbox, its status menu). */
export interface UserTaskPatch {
  subject?: string
  description?: string
  activeForm?: string
  status?: TaskStatus
  /** An empty string clears the owner. */
  owner?: string
}

/**
 * The task panel's side of a session's task list: the user reads, adds, edits, completes, reorders
 * and deletes tasks through the same store (and its lock) as the agent's task tools, so the change
 * goes out as the same `task_update` event. Each change is also told to the model, through
 * `remind`, on its next request: the model must not work from a list the user has changed.
 * A refusal (a claimed task, a busy list, a damaged file) is an {@link AppError} with the store's words.
 */
export class UserTaskEdits {
  constructor(
    private readonly access: TaskListAccess,
    private readonly remind: (text: string) => void,
  ) {}

  /** The list's name and its tasks in list order, with the files that could not be read. */
  async list(): Promise<TaskListing & { listId: string }> {
    return { listId: this.access.listId, ...(await this.access.store.list()) }
  }

  async create(input: { subject: string; description: string; activeForm?: string }): Promise<Task> {
    const created = await guard(() => this.access.store.create(input, USER_ACTOR))
    if (!created.ok) throw new AppError('CONFLICT', created.error)
    this.tell(`added task #${created.task.id} "${created.task.subject}"${created.task.description ? `: ${created.task.description}` : ''}`)
    return created.task
  }

  async update(taskId: string, patch: UserTaskPatch): Promise<Task> {
    const before = await this.current(taskId)
    const updated = await guard(() => this.access.store.update(taskId, patch, USER_ACTOR))
    if (!updated.ok) throw new AppError('CONFLICT', updated.error)
    const task = updated.task!
    if (updated.updatedFields.length > 0) this.tell(describeEdit(before, task, updated.updatedFields))
    return task
  }

  async remove(taskId: string): Promise<void> {
    const before = await this.current(taskId)
    const removed = await guard(() => this.access.store.update(taskId, { status: 'deleted' }, USER_ACTOR))
    if (!removed.ok) throw new AppError('CONFLICT', removed.error)
    this.tell(`deleted task #${before.id} "${before.subject}"`)
  }

  /** Puts the task right before `beforeId` (at the end without one). */
  async move(taskId: string, beforeId: string | undefined): Promise<void> {
    const moving = await this.current(taskId)
    const moved = await guard(() => this.access.store.move(taskId, beforeId, USER_ACTOR))
    if (!moved.ok) throw new AppError('CONFLICT', moved.error)
    if (!moved.moved) return
    const { tasks } = await this.access.store.list()
    const order = tasks.map((task) => `#${task.id}`).join(', ')
    const place = beforeId === undefined ? 'to the end' : `before #${beforeId.replace(/^\s*#/, '').trim()}`
    this.tell(`moved task #${moving.id} "${moving.subject}" ${place}; the order is now ${order} (the user's priorities: work in this order unless a blocker says otherwise)`)
  }

  private async current(taskId: string): Promise<Task> {
    const got = await this.access.store.get(taskId)
    if (!got.ok) throw new AppError('NOT_FOUND', got.error)
    return got.task
  }

  private tell(change: string): void {
    this.remind(`The user changed your task list in the task panel: they ${change}. Take it into account (TaskList shows the list as it is now).`)
  }
}

/** What the user changed, in words the model can act on. */
function describeEdit(before: Task, after: Task, fields: readonly string[]): string {
  const parts: string[] = []
  if (fields.includes('status')) {
    parts.push(after.status === 'completed' ? 'marked it completed' : after.status === 'in_progress' ? 'started it themselves (in progress, owner: user)' : 'reopened it (pending)')
  }
  if (fields.includes('subject')) parts.push(`renamed it to "${after.subject}"`)
  if (fields.includes('description')) parts.push(`changed its description to: ${after.description}`)
  if (fields.includes('activeForm')) parts.push(after.activeForm ? `set its active form to "${after.activeForm}"` : 'cleared its active form')
  if (fields.includes('owner') && !fields.includes('status')) parts.push(after.owner ? `assigned it to ${after.owner}` : 'cleared its owner')
  return `edited task #${after.id} "${before.subject}": ${parts.join('; ')}`
}

/** The store throws only for a damaged id counter or a file it cannot write: say so, never INTERNAL. */
async function guard<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    throw new AppError('CONFLICT', `The task list could not be changed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
