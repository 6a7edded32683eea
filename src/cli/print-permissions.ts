import type { Denial } from '../main/governance/approvals/denials'

/** A call refused in headless mode, as Claude Code's JSON output lists it. */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: unknown
}

/** The session's denial log as the result's `permission_denials`, oldest first. */
export function permissionDenials(log: readonly Denial[]): PermissionDenial[] {
  return log.map((denial) => ({ tool_name: denial.toolName, tool_use_id: denial.toolUseId ?? '', tool_input: denial.input }))
}
