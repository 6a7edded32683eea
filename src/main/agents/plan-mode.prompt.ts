/** What the model is told while plan mode is on (attached to the user's message as a system reminder). */
export function planModeReminder(planFile: string): string {
  return `Plan mode is active. The user wants you to plan before you act: explore with read-only tools (Read, Glob, Grep, read-only Bash commands, WebFetch, TaskList and TaskGet) and design an approach, but do not edit files, run commands that change anything, or commit; such calls are refused while plan mode lasts.

When the plan is ready, call ExitPlanMode with the plan as Markdown: concise, with the steps, the files to change, and how to verify the result. It is saved to ${planFile}, and the user approves it (possibly after editing it) or sends it back with feedback for you to keep planning. If something must be clarified first, ask in your reply and end your turn instead.`
}
