/** A call refused in headless mode, as Claude Code's JSON output lists it. */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: unknown
}
