import type { PermissionGate } from '../governance/gate/gate'
import type { PlanModeControl, PlanOutcome } from '../tools/types'

/**
 * A teammate's plan mode as ExitPlanMode reaches it: its mode is its own run's gate's; its plan goes
 * to the team lead (`TeammateLink.proposePlan`), never to the user's plan dialog; it does not enter
 * plan mode by itself (its lead or its agent type puts it there).
 */
export function teammatePlanMode(gate: PermissionGate, propose: (plan: string, toolUseId: string, signal: AbortSignal) => Promise<PlanOutcome>): PlanModeControl {
  return {
    get mode() {
      return gate.mode
    },
    enter: () => Promise.resolve({ entered: false, reason: 'A teammate does not enter plan mode by itself: ask your team lead with SendMessage.' }),
    propose,
  }
}
