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

// The order lives apart from the schema, so code that sorts tasks need not build the protocol's zod schemas.
export { compareTaskOrder, taskPosition } from './task-order'
