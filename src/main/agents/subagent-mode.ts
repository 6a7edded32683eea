import type { PermissionModeName } from '../../shared/ipc/contract'

/** From strictest to loosest: a subagent may be stricter than its parent, never looser. */
const LOOSENESS: readonly PermissionModeName[] = ['plan', 'dontAsk', 'default', 'auto', 'acceptEdits', 'bypassPermissions']

/**
 * The mode a subagent's calls are judged in: the mode its type asks for when that is no looser
 * than its parent's, else the parent's. So a parent in plan mode cannot escape it by starting an
 * agent, and an agent file cannot grant itself `bypassPermissions`; Explore's `plan` holds under
 * any parent.
 */
export function subagentMode(parent: PermissionModeName, wanted: PermissionModeName | undefined): PermissionModeName {
  if (wanted === undefined) return parent
  return LOOSENESS.indexOf(wanted) <= LOOSENESS.indexOf(parent) ? wanted : parent
}
