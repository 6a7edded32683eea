/** Model-facing description of TaskGet. */
export default `
Retrieves one task of your task list by its id: subject, full description, status, owner, and its dependencies (the tasks it blocks, and the tasks it is blocked by, saying which of those are still open).

Use it before you start a task, to read its complete requirements and to check that nothing still blocks it.
`
