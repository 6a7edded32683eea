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
