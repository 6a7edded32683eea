import { SOUS_HOOK_EVENTS } from '../hook-events'

/** Hook events Sous can fire (Claude Code's names); the list lives with the settings' check of names. */
export const HOOK_EVENTS = SOUS_HOOK_EVENTS
export type HookEvent = (typeof HOOK_EVENTS)[number]

/** Events whose matcher is ignored (Claude Code: they have none). */
export const EVENTS_WITHOUT_MATCHER = new Set<HookEvent>(['UserPromptSubmit', 'Stop', 'Notification', 'SessionEnd'])

/** Events where exit code 2 blocks the action. */
export const BLOCKING_EVENTS = new Set<HookEvent>(['PreToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'PermissionRequest', 'PreModelSwitch'])

/** One hook process's run. */
export interface HookRun {
  exitCode: number | null
  stdout: string
  stderr: string
  durationMs: number
  timedOut: boolean
  /** Spawn failure or unsupported handler. */
  error?: string
  /** Stdout was longer than the cap and was cut (so it cannot be a complete JSON answer). */
  stdoutTruncated?: boolean
}

/** A hook's verdict on a tool call or permission request. */
export type HookPermission = 'allow' | 'deny' | 'ask' | 'defer'

/** All matching hooks of one firing, combined. */
export interface HookAggregate {
  /** Exit 2 (or `decision: "block"`) from a hook of a blocking event: the action must not proceed. */
  blocked: boolean
  /** Why (stderr of exit-2 hooks, or the JSON reason), for the model or the user. */
  blockReason?: string
  /** PreToolUse / PermissionRequest: deny > defer > ask > allow. */
  permission?: HookPermission
  permissionReason?: string
  /** Replacement tool input (PreToolUse allow/ask), from the first hook that gave one. */
  updatedInput?: unknown
  /** Text to add to the model's context. */
  additionalContext: string[]
  /** `continue: false` from any hook: stop the whole loop. */
  stop: boolean
  stopReason?: string
  systemMessages: string[]
  suppressOutput: boolean
  /** Non-blocking failures (other exit codes, timeouts, bad JSON), for the UI. */
  errors: string[]
  /** How many hooks ran. */
  count: number
}
