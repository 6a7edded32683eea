import type { Hunk } from '../../../shared/edit-review'
import { hunksCollide } from './overlap'

/** A text's lines, each with its line ending (the last may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
}

/**
 * The three-way merge of changes that all start from `fork` and none of which overlap or touch:
 * each change's lines of `fork` replaced by its text, in one pass. That is what any three-way merge
 * gives when the changes are apart, so the common case of a merge needs no git process; changes
 * that collide return `undefined` (git decides those). The same change made twice counts once.
 */
export function composeChanges(fork: string, changes: readonly Hunk[]): string | undefined {
  const unique: Hunk[] = []
  for (const change of changes) if (!unique.some((other) => other.beforeLine === change.beforeLine && other.removed === change.removed && other.added === change.added)) unique.push(change)
  const sorted = [...unique].sort((a, b) => a.beforeLine - b.beforeLine || a.beforeCount - b.beforeCount)
  for (let i = 1; i < sorted.length; i++) if (hunksCollide(sorted[i - 1]!, sorted[i]!)) return undefined
  const lines = linesOf(fork)
  let out = ''
  let next = 0
  for (const change of sorted) {
    const start = change.beforeLine - 1
    out += lines.slice(next, start).join('') + change.added
    next = start + change.beforeCount
  }
  return out + lines.slice(next).join('')
}
