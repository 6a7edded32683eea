import { applyDecisions, reviewChange, type HunkDecision, type Review } from '../../../shared/edit-review'
import { hashOf } from './changes'
import { hasConflictMarkers, mergeFile } from './merge-file'
import { hunksCollide } from './overlap'
import type { BaseFile, MergeConflict, MergePlanFile, Side, ThreeWay } from './plan-types'

/** A file's plan before the dirty flag and fingerprint are added. */
type Planned = Omit<MergePlanFile, 'dirty' | 'fingerprint'>

/** A side in text: its review from the fork to the worktree and the hunks picked. */
interface TextSide {
  side: Side
  fork: string
  review: Review
  picked: number[]
  clean: number[]
}

const labels = (side: Side) => ({ ours: 'base (with the other picks)', base: `fork point ${side.source.fork.slice(0, 8)}`, theirs: side.source.label })

/** The text the picked hunks give: the fork point with only those hunks applied. */
function withHunks(review: Review, hunks: readonly number[]): string {
  const decisions: HunkDecision[] = review.hunks.map((hunk) => (hunks.includes(hunk.index) ? 'accepted' : 'rejected'))
  return applyDecisions(review, decisions)
}

/**
 * One file's plan (see planMerge): whole-file picks (binary files, deletions) by comparing
 * hashes; text picks hunk by hunk, each collision with the base or another pick checked with git
 * (which has the last word: a collision git merges cleanly is no conflict) and held back.
 */
export async function planText(path: string, base: BaseFile, sides: readonly Side[], resolution: string | undefined): Promise<Planned> {
  const current = base.text
  const exists = base.bytes !== undefined
  const wholeSide = sides.find((side) => side.file.whole || side.file.change === 'deleted')
  if (wholeSide) return planWhole(path, base, sides, wholeSide)
  const conflicts: MergeConflict[] = []
  if (exists && current === undefined) {
    for (const side of sides) conflicts.push({ sessionId: side.source.sessionId, hunk: 'all', with: 'base', why: 'the base holds a binary or very large file here' })
    return { path, action: 'none', conflicts, preview: [], resolved: false }
  }
  const baseText = current ?? ''
  const texts: TextSide[] = []
  for (const side of sides) {
    const fork = side.file.before ?? ''
    const review = reviewChange(fork, side.file.after ?? '')
    const picked = side.picks === 'all' ? review.hunks.map((hunk) => hunk.index) : [...side.picks]
    if (!exists && side.file.change === 'modified') {
      for (const hunk of picked) conflicts.push({ sessionId: side.source.sessionId, hunk, with: 'base', why: 'the base deleted this file since the session forked' })
      continue
    }
    texts.push({ side, fork, review, picked, clean: [] })
  }
  let merged = baseText
  for (const [position, text] of texts.entries()) {
    const { review, fork, side } = text
    const baseReview = reviewChange(fork, baseText)
    const suspects = new Map<number, MergeConflict>()
    for (const index of text.picked) {
      const hunk = review.hunks[index]!
      if (baseReview.hunks.some((other) => hunksCollide(other, hunk))) suspects.set(index, { sessionId: side.source.sessionId, hunk: index, with: 'base', why: 'the base changed these lines since the session forked' })
      for (const earlier of texts.slice(0, position)) {
        if (earlier.fork !== fork) continue
        const clash = earlier.clean.find((other) => hunksCollide(earlier.review.hunks[other]!, hunk))
        if (clash !== undefined && !suspects.has(index)) suspects.set(index, { sessionId: side.source.sessionId, hunk: index, with: { sessionId: earlier.side.source.sessionId, hunk: clash }, why: `${earlier.side.source.label} changes the same lines` })
      }
    }
    // Git decides: every hunk no guess flagged goes in together, then each flagged one on its own.
    const taken: number[] = []
    const attempt = async (hunks: number[]) => mergeFile(merged, fork, withHunks(review, hunks), labels(side))
    const clean = text.picked.filter((index) => !suspects.has(index))
    let outcome = await attempt(clean)
    if (outcome.conflicts === 0) taken.push(...clean)
    else {
      outcome = { text: merged, conflicts: 0 }
      for (const index of clean) suspects.set(index, { sessionId: side.source.sessionId, hunk: index, with: 'base', why: 'git could not merge it cleanly' })
    }
    for (const [index, conflict] of [...suspects.entries()].sort((a, b) => a[0] - b[0])) {
      const tried = await attempt([...taken, index].sort((a, b) => a - b))
      if (tried.conflicts === 0) {
        taken.push(index)
        outcome = tried
      } else conflicts.push(conflict)
    }
    text.clean = taken.sort((a, b) => a - b)
    merged = outcome.text
  }
  const preview: ThreeWay[] = []
  for (const text of texts) {
    if (!conflicts.some((conflict) => conflict.sessionId === text.side.source.sessionId)) continue
    const theirs = withHunks(text.review, text.picked)
    const shown = await mergeFile(merged, text.fork, theirs, labels(text.side))
    preview.push({ sessionId: text.side.source.sessionId, base: text.fork, ours: merged, theirs, merged: shown.text })
  }
  const resolved = resolution !== undefined && !hasConflictMarkers(resolution)
  const result = resolved ? resolution : merged
  const unchanged = exists ? result === current : result === '' && texts.every((text) => text.clean.length === 0)
  return { path, ...(current !== undefined && { current }), action: unchanged ? 'none' : 'write', ...(!unchanged && { result }), conflicts, preview, resolved }
}

/** A binary file or a deletion: taken whole from one session, if the base has not changed it since that session forked. */
function planWhole(path: string, base: BaseFile, sides: readonly Side[], side: Side): Planned {
  const conflicts: MergeConflict[] = []
  const baseHash = base.bytes ? hashOf(base.bytes) : ''
  const target = side.file.afterHash
  if (baseHash !== side.file.beforeHash && baseHash !== target) conflicts.push({ sessionId: side.source.sessionId, hunk: 'all', with: 'base', why: side.file.change === 'deleted' ? 'the base changed this file since the session deleted it' : 'the base changed this file since the session forked' })
  for (const other of sides) {
    if (other === side) continue
    conflicts.push({ sessionId: other.source.sessionId, hunk: 'all', with: { sessionId: side.source.sessionId, hunk: 'all' }, why: `${side.source.label} replaces the whole file` })
  }
  const held = conflicts.some((conflict) => conflict.sessionId === side.source.sessionId)
  const current = base.text
  if (held || baseHash === target) return { path, ...(current !== undefined && { current }), action: 'none', conflicts, preview: [], resolved: false }
  if (side.file.change === 'deleted') return { path, ...(current !== undefined && { current }), action: 'delete', conflicts, preview: [], resolved: false }
  return { path, ...(current !== undefined && { current }), action: 'copy', copyFrom: { sessionId: side.source.sessionId, hash: target }, conflicts, preview: [], resolved: false }
}
