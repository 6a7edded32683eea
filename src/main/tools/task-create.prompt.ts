/** Model-facing description of TaskCreate. */
export default `
Creates a task in your task list: a structured way to track the steps of multi-step work, show the user your progress, and share work with other agents.

When to use it:
- Complex work with 3 or more distinct steps, or work that needs careful planning
- When the user gives you several things to do (a numbered or comma-separated list)
- When the user asks you to keep a task list
- Right after receiving new instructions, to capture the requirements as tasks

When not to use it:
- A single, straightforward step, or work you can finish in a few trivial steps
- Purely conversational or informational requests

Fields:
- subject: a short imperative title ("Fix the login redirect")
- description: what needs to be done, with enough detail for another agent to pick it up
- activeForm: the present continuous form shown while the task is in progress ("Fixing the login redirect")
- metadata: optional key-value data to attach

A new task is pending and has no owner. Use TaskUpdate to add dependencies (addBlocks, addBlockedBy), to start a task (status in_progress) and to mark it completed. Check TaskList first so you do not create duplicates.
`
