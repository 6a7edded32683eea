/**
 * Hook event names, shared by the settings loader (which warns about names that do nothing) and
 * the hook runner: Claude Code's full list, and the ones Sous fires today.
 */

/**
 * Every hook event Claude Code knows (the keys its settings accept under `hooks`), from its hooks
 * reference. A project's settings may configure any of them; Sous fires {@link FIRED_HOOK_EVENTS}.
 */
export const CLAUDE_CODE_HOOK_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'PermissionRequest', 'PermissionDenied', 'Notification',
  'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
  'PreModelSwitch', 'PostModelSwitch', 'Setup', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'Elicitation', 'ElicitationResult',
  'ConfigChange', 'WorktreeCreate', 'WorktreeRemove', 'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded',
  'MessageDisplay', 'SessionStart', 'SessionEnd',
] as const

/**
 * The events Sous fires today (keep in step with the README's hook section). The hook runner's
 * `HookEvent` is this list, so an event cannot be fired without being listed here.
 */
export const SOUS_HOOK_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'UserPromptSubmit', 'Notification', 'Stop', 'SubagentStart',
  'SubagentStop', 'PreCompact', 'PostCompact', 'PreModelSwitch', 'PostModelSwitch', 'SessionStart', 'SessionEnd',
] as const

export const FIRED_HOOK_EVENTS: ReadonlySet<string> = new Set(SOUS_HOOK_EVENTS)

/** Events Claude Code fires at a moment Sous does not have, with why they never run here. */
const NO_MOMENT: Readonly<Record<string, string>> = {
  DirectoryAdded: 'Sous has no /add-dir (extra folders come from additionalDirectories in the settings), so the DirectoryAdded hook never runs.',
}

/** What is wrong with a configured event name, if anything: a typo, or an event Sous does not fire yet. */
export function hookEventProblem(name: string): string | undefined {
  if (FIRED_HOOK_EVENTS.has(name)) return undefined
  const reason = NO_MOMENT[name]
  if (reason) return reason
  if ((CLAUDE_CODE_HOOK_EVENTS as readonly string[]).includes(name)) return `Sous does not fire the ${name} hook event yet, so these hooks never run.`
  const near = CLAUDE_CODE_HOOK_EVENTS.find((known) => known.toLowerCase() === name.toLowerCase())
  return `"${name}" is not a hook event${near ? ` (did you mean ${near}?)` : ''}; these hooks never run.`
}
