import { createPatch, diffLines } from 'diff'

/**
 * The pure logic of reviewing a proposed file change hunk by hunk, shared by the approval UI
 * (which shows the hunks and collects decisions) and the main process (which recomputes the same
 * hunks from the preview it holds, so the note to the model never trusts the renderer's account).
 */

/** One run of changed lines: what the proposal removes and what it adds in their place. */
export interface Hunk {
  index: number
  /** 1-based first line in the original file (the line after which an insertion goes, plus one). */
  beforeLine: number
  beforeCount: number
  /** 1-based first line in the proposed file. */
  afterLine: number
  afterCount: number
  removed: string
  added: string
}

/** The file as alternating unchanged text and hunks, in order. */
export type Segment = { kind: 'same'; text: string } | { kind: 'change'; hunk: number; removed: string; added: string }

/** A proposal split into hunks. */
export interface Review {
  segments: Segment[]
  hunks: Hunk[]
}

/** What the user decided for one hunk. */
export type HunkDecision = 'accepted' | 'rejected'

/** Splits the change from `before` to `after` into hunks (consecutive changed lines form one). */
export function reviewChange(before: string, after: string): Review {
  const segments: Segment[] = []
  const hunks: Hunk[] = []
  let beforeLine = 1
  let afterLine = 1
  let open: { hunk: Hunk; segment: Extract<Segment, { kind: 'change' }> } | undefined
  for (const part of diffLines(before, after)) {
    const count = part.count ?? countLines(part.value)
    if (!part.added && !part.removed) {
      open = undefined
      segments.push({ kind: 'same', text: part.value })
      beforeLine += count
      afterLine += count
      continue
    }
    if (!open) {
      const hunk: Hunk = { index: hunks.length, beforeLine, beforeCount: 0, afterLine, afterCount: 0, removed: '', added: '' }
      const segment = { kind: 'change' as const, hunk: hunk.index, removed: '', added: '' }
      hunks.push(hunk)
      segments.push(segment)
      open = { hunk, segment }
    }
    if (part.removed) {
      open.hunk.removed += part.value
      open.segment.removed += part.value
      open.hunk.beforeCount += count
      beforeLine += count
    } else {
      open.hunk.added += part.value
      open.segment.added += part.value
      open.hunk.afterCount += count
      afterLine += count
    }
  }
  return { segments, hunks }
}

/** The original with only the accepted hunks applied (an undecided hunk counts as rejected). */
export function applyDecisions(review: Review, decisions: readonly (HunkDecision | undefined)[]): string {
  let out = ''
  for (const segment of review.segments) {
    if (segment.kind === 'same') out += segment.text
    else out += decisions[segment.hunk] === 'accepted' ? segment.added : segment.removed
  }
  return out
}

/** How an approved change relates to what the model proposed. */
export type EditOutcome =
  | { kind: 'as_proposed' }
  | { kind: 'rejected' }
  | { kind: 'partial'; applied: number[]; rejected: number[]; note: string }
  | { kind: 'user_changes'; note: string }

/** Longest diff quoted back to the model; beyond it the note says the diff was cut. */
const MAX_NOTE_DIFF = 20_000

/**
 * Classifies what the user approved and writes the note the model gets with the tool result.
 * `final` is the text that will be written; `decisions` are the user's per-hunk choices.
 */
export function describeOutcome(filePath: string, before: string, after: string, final: string, decisions: readonly (HunkDecision | undefined)[]): EditOutcome {
  if (final === after) return { kind: 'as_proposed' }
  if (final === before) return { kind: 'rejected' }
  const review = reviewChange(before, after)
  const applied = review.hunks.filter((h) => decisions[h.index] === 'accepted').map((h) => h.index)
  const rejected = review.hunks.filter((h) => decisions[h.index] !== 'accepted').map((h) => h.index)
  const diff = quoteDiff(filePath, after, final)
  if (applyDecisions(review, decisions) === final && applied.length > 0) {
    const list = (indices: number[]): string => indices.map((i) => describeHunk(review.hunks[i]!)).join('; ')
    const note =
      `The user applied only part of your change to ${filePath}. ` +
      `Applied (${applied.length} of ${review.hunks.length} hunks): ${list(applied)}. ` +
      `Rejected and not applied: ${list(rejected)}. ` +
      `How the written file differs from your proposal:\n${diff}`
    return { kind: 'partial', applied, rejected, note }
  }
  const note = `The user edited your proposed change to ${filePath} before applying it; the file now holds the user's version. How it differs from your proposal:\n${diff}`
  return { kind: 'user_changes', note }
}

/** "hunk 2 (lines 10-12)", with line numbers of the original file. */
export function describeHunk(hunk: Hunk): string {
  const first = hunk.beforeLine
  const last = hunk.beforeLine + Math.max(hunk.beforeCount, 1) - 1
  const where = hunk.beforeCount === 0 ? `insertion after line ${first - 1}` : first === last ? `line ${first}` : `lines ${first}-${last}`
  return `hunk ${hunk.index + 1} (${where})`
}

function quoteDiff(filePath: string, proposed: string, final: string): string {
  const patch = createPatch(filePath, proposed, final, 'your proposal', 'written by the user', { context: 2 })
  // Drop the "Index:" and "===" header lines createPatch puts first; the ---/+++ lines stay.
  const body = patch.split('\n').slice(2).join('\n').trimEnd()
  const cut = body.length > MAX_NOTE_DIFF ? `${body.slice(0, MAX_NOTE_DIFF)}\n… (diff cut at ${MAX_NOTE_DIFF} characters)` : body
  return '```diff\n' + cut + '\n```'
}

function countLines(text: string): number {
  if (text === '') return 0
  const newlines = text.split('\n').length - 1
  return text.endsWith('\n') ? newlines : newlines + 1
}
