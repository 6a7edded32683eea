/** Model-facing description of TaskList. */
export default `
Lists the tasks of your task list, one line each: id, status, subject, owner, and the open tasks that still block it.

Use it:
- To find what is available to work on: pending, no owner, nothing blocking it
- To check overall progress, and after completing a task to see what to do next
- Before creating tasks, so you do not create duplicates

When several tasks are available, prefer the lowest id: earlier tasks often set up what later ones need. Use TaskGet for a task's full description.
`
