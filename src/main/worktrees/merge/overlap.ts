import type { Hunk } from '../../../shared/edit-review'

/**
 * Whether two hunks made against the same original text would collide in a three-way merge: their
 * original line ranges overlap or touch (git merges neither), unless they make the very same
 * change (which git merges as one). A first guess only — git's own merge decides in the end.
 */
export function hunksCollide(a: Hunk, b: Hunk): boolean {
  if (a.beforeLine === b.beforeLine && a.removed === b.removed && a.added === b.added) return false
  const aEnd = a.beforeLine + a.beforeCount
  const bEnd = b.beforeLine + b.beforeCount
  return a.beforeLine <= bEnd && b.beforeLine <= aEnd
}
