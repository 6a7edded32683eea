import type { Explanation } from '../types'

/** What refused a call or an ask: a rule or mode, a hook, the user, the turn's abort, or nobody being there to ask. */
export type DenialReason = 'rule' | 'hook' | 'rejected' | 'aborted' | 'headless'

/** A refused call or ask, as a session's {@link DenialLog} keeps it. */
export interface Denial {
  toolName: string
  /** The refused call (absent for an ask that names none). */
  toolUseId?: string
  input: unknown
  /** What the model (or the headless result) is told. */
  message: string
  reason: DenialReason
  /** Why the ask needed approval, when the unattended answerer denied it. */
  explanation?: Explanation
}

/**
 * The one log of a session's denials: every permission gate of the session (the main agent's and
 * each subagent's) and its unattended answerer write here; `sous -p`'s result
 * (`permission_denials`) reads it. Kept as long as the session is open.
 */
export class DenialLog {
  private readonly kept: Denial[] = []

  /** Adds a denial (the newest last). */
  record(denial: Denial): void {
    this.kept.push(denial)
  }

  /** The denials so far, oldest first; live (a later denial shows in the same array). */
  get entries(): readonly Denial[] {
    return this.kept
  }
}
