import { z } from 'zod'
import { TaskItem } from '../protocol/task'
import { Id } from './common'

/** A task id as the panel sends it ("3"). */
const TaskId = z.string().regex(/^[1-9]\d{0,14}$/, 'a task id is a number')
const Subject = z.string().trim().min(1, 'a task needs a subject').max(500)
const Description = z.string().max(20_000)
const ActiveForm = z.string().trim().max(500)

/**
 * `tasks.*`: a session's task list as the task panel shows and changes it. Every change goes
 * through the same store, under the same lock, as the agent's task tools, comes back as a
 * `task_update` agent event with `actor: "user"`, and is told to the model on its next request.
 * A session that is stored but not open is resumed first. A refused change (the task is claimed by
 * another agent, the list is busy, a file is damaged) is CONFLICT with the reason.
 */
export const tasksRequests = {
  /** The list's name, its tasks in list order, and the task files that could not be read. */
  'tasks.list': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ listId: z.string(), tasks: z.array(TaskItem), problems: z.array(z.object({ file: z.string(), message: z.string() })) }),
  },
  /** Adds a pending task at the end of the list. */
  'tasks.create': {
    input: z.object({ sessionId: Id, subject: Subject, description: Description.default(''), activeForm: ActiveForm.optional() }).strict(),
    output: TaskItem,
  },
  /**
   * Edits a task: its text, its status (`in_progress` claims it for the user, refused while another
   * agent owns it or a blocker is open), its owner (empty clears it).
   */
  'tasks.update': {
    input: z
      .object({
        sessionId: Id,
        taskId: TaskId,
        subject: Subject.optional(),
        description: Description.optional(),
        activeForm: ActiveForm.optional(),
        status: z.enum(['pending', 'in_progress', 'completed']).optional(),
        owner: z.string().trim().max(200).optional(),
      })
      .strict(),
    output: TaskItem,
  },
  /** Deletes a task and every dependency on it. */
  'tasks.delete': { input: z.object({ sessionId: Id, taskId: TaskId }).strict(), output: z.void() },
  /** Puts a task right before `beforeId` in the list's order, or at the end without one. */
  'tasks.move': { input: z.object({ sessionId: Id, taskId: TaskId, beforeId: TaskId.optional() }).strict(), output: z.void() },
} as const
