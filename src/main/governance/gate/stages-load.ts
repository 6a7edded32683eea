import type * as Stages from './stages'

/**
 * The seam in front of the gate's stages (`stages.ts`) and, through them, the decision itself
 * (`decide/`: rules, modes, paths, the Bash decision; ~45 kB built). A session builds its gate
 * before any call, and a run that judges no call (a `sous -p "hello"`) needs neither; every entry
 * of the gate that judges a call is asynchronous already, so it awaits this first and then runs
 * the same stages in the same order: no decision changes (`gate/seam.test.ts`).
 */
export type GateStages = typeof Stages

let ready: Promise<GateStages> | undefined
let loaded: GateStages | undefined

/** Loads the stages once; later calls return the same promise. */
export function loadGateStages(): Promise<GateStages> {
  ready ??= import('./stages').then((stages) => (loaded = stages))
  return ready
}

/** The stages if {@link loadGateStages} has finished, else undefined (for the seam's tests). */
export function gateStagesIfLoaded(): GateStages | undefined {
  return loaded
}
