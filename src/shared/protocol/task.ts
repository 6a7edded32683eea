import { z } from 'zod'

/**
 * A task of an agent's task list as the UI sees it (the fields of the task file; see
 * `main/store/tasks`). `blocks`/`blockedBy` are symmetric.
 */
export const TaskItem = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  /** Shown while the task is in progress ("Running the tests"). */
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Where the user put the task in the list (see {@link compareTaskOrder}); absent: by id. */
  position: z.number().optional(),
})
export type TaskItem = z.infer<typeof TaskItem>

/** Where a task sorts: the place the user gave it, else its id (so a list nobody reordered is by id). */
export function taskPosition(task: { id: string; position?: number }): number {
  return task.position ?? Number(task.id)
}

/**
 * The order of a task list, shared by the task panel and the TaskList tool: by position, then by
 * id. Claude Code's lists have no positions, so they read in id order.
 */
export function compareTaskOrder(a: { id: string; position?: number }, b: { id: string; position?: number }): number {
  return taskPosition(a) - taskPosition(b) || Number(a.id) - Number(b.id)
}
