import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk'
import type { PermissionModeName } from '../../../shared/ipc/contract'

const MODES: ReadonlyArray<SessionMode & { id: PermissionModeName }> = [
  { id: 'default', name: 'Ask', description: 'Ask before edits and commands the rules do not allow (manual)' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edits in the project go through; commands still ask' },
  { id: 'plan', name: 'Plan', description: 'Explore and propose a plan; nothing is changed' },
  { id: 'auto', name: 'Auto', description: 'A classifier judges what the rules leave open' },
  { id: 'dontAsk', name: "Don't ask", description: 'Anything that would ask is refused' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Everything runs without asking' },
]

/**
 * Sous's permission modes as ACP session modes. A client may move between the modes Sous offers
 * everywhere; `bypassPermissions` is listed only for a session that already started in it (the
 * user's own settings or `--permission-mode`), so no ACP client can loosen a session into it, and
 * `auto` not where the settings turn it off.
 */
export function modeState(current: PermissionModeName, options: { autoModeOff?: boolean }): SessionModeState {
  const offered = MODES.filter((mode) => (mode.id !== 'bypassPermissions' || current === 'bypassPermissions') && (mode.id !== 'auto' || !options.autoModeOff))
  return { currentModeId: current, availableModes: offered.map(({ id, name, description }) => ({ id, name, ...(description && { description }) })) }
}

/** Whether a client may switch a session to `modeId` (one of the modes offered to it). */
export function offeredMode(state: SessionModeState, modeId: string): PermissionModeName | undefined {
  return state.availableModes.some((mode) => mode.id === modeId) ? (modeId as PermissionModeName) : undefined
}
