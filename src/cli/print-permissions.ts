import type { Denial } from '../main/governance/approvals/denials'

/**
 * A call refused in headless mode, as Claude Code's JSON output lists it, plus Sous's `message`:
 * why, naming the rule and where it comes from (`… from --disallowedTools`, `… from --settings
 * (/path)`), so a script can tell which source refused it.
 */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: unknown
  message: string
}

/** The session's denial log as the result's `permission_denials`, oldest first. */
export function permissionDenials(log: readonly Denial[]): PermissionDenial[] {
  return log.map((denial) => ({ tool_name: denial.toolName, tool_use_id: denial.toolUseId ?? '', tool_input: denial.input, message: denial.message }))
}
