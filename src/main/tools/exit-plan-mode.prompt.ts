/** Model-facing description of ExitPlanMode. */
export default `
Presents your plan to the user for approval and, once they approve it, leaves plan mode so you can start implementing.

Use it only in plan mode, and only when the task is about writing code: when you have finished planning the implementation steps. Not for research tasks (gathering information, reading files, understanding the codebase): answer those directly.

The plan is Markdown, concise but complete: the approach, the steps in order, the files to change, and how you will verify the result. It is saved to a plan file. The user may approve it as is, edit it before approving (follow the approved version), or send it back with feedback: then keep planning and call ExitPlanMode again with the revised plan. Do not ask "is this plan okay?" in text: this tool is how you ask.
`
