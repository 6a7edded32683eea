/** Model-facing description of EnterPlanMode. */
export default `
Asks the user to switch to plan mode, where you explore the codebase and design an approach for their approval before you write any code. In plan mode only read-only tools run.

Use it proactively before non-trivial implementation work, where getting the user's sign-off on the approach first prevents wasted effort:
- New features or changes with several reasonable approaches
- Changes touching many files, or architectural decisions
- Unclear requirements that need exploration first
- When the user asks you to plan, or to think before acting

Skip it for small, clear tasks (a typo, an obvious bug fix, a single well-specified function) and for pure research questions.

The user may decline; then go on without plan mode. Once in plan mode, explore, write the plan, and present it with ExitPlanMode.
`
