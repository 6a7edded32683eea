import type { PermissionModeName } from '../../shared/ipc/contract'

/** The session's plan mode as EnterPlanMode and ExitPlanMode reach it. */
export interface PlanModeControl {
  /** The session's permission mode now. */
  readonly mode: PermissionModeName
  /** Asks the user to enter plan mode (headless: only `bypassPermissions` enters without asking). */
  enter(toolUseId: string, signal: AbortSignal): Promise<{ entered: true } | { entered: false; reason: string }>
  /** Saves the plan to its file and asks the user to approve it; on approval plan mode ends. */
  propose(plan: string, toolUseId: string, signal: AbortSignal): Promise<PlanOutcome>
}

/** How a proposed plan ended. */
export type PlanOutcome =
  /** `approver`: who decided, when it is not the user (a teammate's plan goes to its team lead). */
  | { outcome: 'approved'; mode: PermissionModeName; plan: string; edited: boolean; approver?: string; feedback?: string; filePath?: string; fileError?: string }
  | { outcome: 'keep_planning'; approver?: string; feedback?: string; filePath?: string; fileError?: string }
  /** Headless: saved, and nobody here can approve it. */
  | { outcome: 'unattended'; filePath?: string; fileError?: string }
  | { outcome: 'aborted'; message: string }
