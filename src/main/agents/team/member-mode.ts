import type { PermissionModeName } from '../../../shared/ipc/contract'
import type { PermissionGate } from '../../governance/gate/gate'

/** How much a mode lets through without asking, least first: a teammate's mode is never looser than its lead's. */
const LOOSENESS: Record<string, number> = { plan: 0, default: 1, dontAsk: 1, acceptEdits: 2, auto: 3, bypassPermissions: 4 }

/** Whether a mode lets through more than another. */
export function looserThan(mode: PermissionModeName, than: PermissionModeName): boolean {
  return (LOOSENESS[mode] ?? 4) > (LOOSENESS[than] ?? 4)
}

/**
 * A teammate's permission mode as the lead sets it (an approved plan moves it out of plan mode):
 * kept for its next runs and applied to the gate of the run going on. Never looser than the lead's
 * own mode, so a teammate never gets more than the user gave the lead; the gate refuses what the
 * settings rule out (`disableBypassPermissionsMode`, `disableAutoMode`).
 */
export class MemberMode {
  private mode: PermissionModeName | undefined
  private gate: PermissionGate | undefined

  /** The mode its next run starts in (undefined: the one it was spawned with). */
  current(): PermissionModeName | undefined {
    return this.mode
  }

  /** Each run's gate as it opens. */
  attach(gate: PermissionGate): void {
    this.gate = gate
    if (this.mode !== undefined && gate.mode !== this.mode) this.apply(gate, this.mode)
  }

  /** Sets the mode (bounded by `lead`); returns what was set, or why not. */
  set(wanted: PermissionModeName, lead: PermissionModeName): { mode: PermissionModeName } | { error: string } {
    const mode = looserThan(wanted, lead) ? lead : wanted
    if (this.gate) {
      const error = this.apply(this.gate, mode)
      if (error) return { error }
    }
    this.mode = mode
    return { mode }
  }

  private apply(gate: PermissionGate, mode: PermissionModeName): string | undefined {
    try {
      gate.setMode(mode)
      return undefined
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }
}
