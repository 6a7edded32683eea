import { applyDecisions, reviewChange, type Hunk, type HunkDecision, type Review } from '../../../shared/edit-review'
import { hashOf } from './changes'
import { composeChanges } from './compose'
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

/** Sends one flagged hunk to git: taken when git merges it cleanly into `merged`, else a conflict. Answers the text after it. */
async function verify(text: TextSide, index: number, conflict: MergeConflict, merged: string, conflicts: MergeConflict[]): Promise<string> {
  const tried = await mergeFile(merged, text.fork, withHunks(text.review, [...text.clean, index].sort((a, b) => a - b)), labels(text.side))
  if (tried.conflicts > 0) {
    conflicts.push(conflict)
    return merged
  }
  text.clean = [...text.clean, index].sort((a, b) => a - b)
  return tried.text
}

/**
 * Every side forked from the same text (the usual case): the base's own changes and the picked
 * hunks that collide with nothing are composed in one pass, no process; each hunk that collides
 * with the base or an earlier pick is then sent to git on its own, which has the last word.
 */
async function mergeTogether(texts: TextSide[], baseText: string, conflicts: MergeConflict[]): Promise<string> {
  const fork = texts[0]?.fork ?? baseText
  const baseHunks = reviewChange(fork, baseText).hunks
  const taken: Array<{ hunk: Hunk; owner?: TextSide; index?: number }> = baseHunks.map((hunk) => ({ hunk }))
  const flagged: Array<{ text: TextSide; index: number; conflict: MergeConflict }> = []
  for (const text of texts) {
    for (const index of text.picked) {
      const hunk = text.review.hunks[index]!
      const clash = taken.find((other) => hunksCollide(other.hunk, hunk))
      if (!clash) {
        taken.push({ hunk, owner: text, index })
        text.clean.push(index)
        continue
      }
      const sessionId = text.side.source.sessionId
      const conflict: MergeConflict = clash.owner
        ? { sessionId, hunk: index, with: { sessionId: clash.owner.side.source.sessionId, hunk: clash.index! }, why: `${clash.owner.side.source.label} changes the same lines` }
        : { sessionId, hunk: index, with: 'base', why: 'the base changed these lines since the session forked' }
      flagged.push({ text, index, conflict })
    }
  }
  let merged = composeChanges(fork, taken.map((entry) => entry.hunk)) ?? baseText
  for (const { text, index, conflict } of flagged) merged = await verify(text, index, conflict, merged, conflicts)
  return merged
}

/** Sides forked from different commits: each merged into the text so far with git, in turn. */
async function mergeInTurn(texts: TextSide[], baseText: string, conflicts: MergeConflict[]): Promise<string> {
  let merged = baseText
  for (const text of texts) {
    const outcome = await mergeFile(merged, text.fork, withHunks(text.review, text.picked), labels(text.side))
    if (outcome.conflicts === 0) {
      text.clean = [...text.picked]
      merged = outcome.text
      continue
    }
    for (const index of text.picked) merged = await verify(text, index, { sessionId: text.side.source.sessionId, hunk: index, with: 'base', why: 'git could not merge it cleanly (the sessions forked from different commits)' }, merged, conflicts)
  }
  return merged
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
  const forks = new Set(texts.map((text) => text.fork))
  const merged = forks.size <= 1 ? await mergeTogether(texts, baseText, conflicts) : await mergeInTurn(texts, baseText, conflicts)
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
