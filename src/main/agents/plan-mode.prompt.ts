/** What the model is told when plan mode starts (a system reminder with its next request). */
export function planModeReminder(planFile: string): string {
  return `Plan mode is active. The user wants you to plan before you act: explore with read-only tools (Read, Glob, Grep, read-only Bash commands, WebFetch, TaskList and TaskGet) and design an approach, but do not edit files, run commands that change anything, or commit; such calls are refused while plan mode lasts.

When the plan is ready, call ExitPlanMode with the plan as Markdown: concise, with the steps, the files to change, and how to verify the result. It is saved to ${planFile}, and the user approves it (possibly after editing it) or sends it back with feedback for you to keep planning. If something must be clarified first, ask in your reply and end your turn instead.`
}

/** The reminder every few turns while plan mode lasts: short, the full text came at the start. */
export function planModeStillActive(planFile: string): string {
  return `Plan mode is still active: keep to read-only tools and change nothing. When the plan is ready, present it with ExitPlanMode (it is saved to ${planFile}); if something must be clarified first, ask in your reply and end your turn.`
}

/** The reminder when the user switched plan mode off (an approved plan is told by ExitPlanMode's own result). */
export function planModeEnded(mode: string): string {
  const now = mode === 'acceptEdits' ? 'file edits are accepted without asking' : mode === 'bypassPermissions' ? 'nothing asks for approval' : mode === 'dontAsk' ? 'anything that needs approval is refused' : 'each change asks the user for approval'
  return `Plan mode is over: the user switched it off (permission mode ${mode}: ${now}). You may make changes now; if you presented a plan, the user has not approved it through ExitPlanMode, so check with them before acting on it.`
}
