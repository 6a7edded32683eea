/** Model-facing description of TaskUpdate. */
export default `
Updates a task of your task list: its fields, its status, its owner or its dependencies.

Status goes pending → in_progress → completed; "deleted" removes a task that is no longer relevant, together with its links.
- Set a task to in_progress BEFORE you start working on it. This claims it, and is refused when another agent owns the task, when it is already completed, or while a task it is blocked by is still open; then pick another task.
- Set it to completed as soon as it is fully done, and only then: not while tests fail, the work is partial or errors are unresolved (keep it in_progress and create a task for what blocks you). The reply names the tasks that completing it unblocked.
- As a rule, have one task in progress at a time.

Fields:
- taskId: the task's id (from TaskCreate or TaskList)
- subject, description, activeForm: replace those fields
- owner: assigns the task to an agent; an empty string clears it
- addBlocks: ids of tasks that cannot start until this one is completed
- addBlockedBy: ids of tasks that must be completed before this one can start
- metadata: keys merged into the task's metadata; a key set to null is removed

Other agents may change the list too: read a task with TaskGet before updating it if in doubt.
`
