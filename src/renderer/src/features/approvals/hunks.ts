import type { RequestInput } from '../../../../shared/ipc/contract'
import type { HunkDecision, Review } from '../../../../shared/edit-review'

/** The user's choices so far, one entry per hunk (`undefined`: not decided yet). */
export type Decisions = ReadonlyArray<HunkDecision | undefined>

/** Counts for the toolbar: "2 accepted · 1 rejected · 1 open". */
export function tally(decisions: Decisions, total: number): { accepted: number; rejected: number; open: number } {
  let accepted = 0
  let rejected = 0
  for (let i = 0; i < total; i++) {
    if (decisions[i] === 'accepted') accepted++
    else if (decisions[i] === 'rejected') rejected++
  }
  return { accepted, rejected, open: total - accepted - rejected }
}

/** A copy with hunk `index` set to `decision`. */
export function decide(decisions: Decisions, index: number, decision: HunkDecision, total: number): Decisions {
  return Array.from({ length: total }, (_, i) => (i === index ? decision : decisions[i]))
}

/** Every hunk set to `decision`. */
export function decideAll(total: number, decision: HunkDecision): Decisions {
  return Array.from({ length: total }, () => decision)
}

/**
 * The reply for what the user approved. Hunks still open when the user presses Apply count as
 * accepted (Apply means "the proposed side as it now reads"). A file left as it was is a rejection.
 * `final` is the proposed side's text, including the user's own edits.
 */
export function editReply(id: string, review: Review, before: string, final: string, decisions: Decisions, message: string): RequestInput<'approval.reply'> {
  if (final === before) {
    const text = message.trim()
    return { id, decision: 'reject', message: text || 'The user rejected every hunk of this change.' }
  }
  const hunks = review.hunks.map((h) => decisions[h.index] ?? 'accepted')
  return { id, decision: 'allow_once', finalContent: final, hunks }
}
