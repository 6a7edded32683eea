import type { GateCall, GateDecision } from './types'

/**
 * Allows the call, with the replaced input when a hook (or `updated`) changed it. A file of its
 * own so that auto mode (built with every gate) needs no part of the stages, which load at the
 * first call judged (`stages-load.ts`).
 */
export function allowCall(call: GateCall, updated?: unknown): GateDecision {
  if (updated !== undefined) return { behavior: 'allow', updatedInput: updated }
  return call.replaced ? { behavior: 'allow', updatedInput: call.input } : { behavior: 'allow' }
}
