import { diffLineKind } from './changes'

/** One side of a side-by-side row: the line as the patch has it (its +/-/space mark kept, for readers who do not see colour) and how it changed. */
export interface SideCell {
  text: string
  kind: 'add' | 'del' | 'context'
}

/** A row of the two-column diff: a header across both columns, or a line on each side (or one). */
export type SideRow = { kind: 'file' | 'hunk'; text: string } | { kind: 'pair'; left?: SideCell; right?: SideCell }

/**
 * A unified patch laid out in two columns: context on both sides, each run of removed lines beside
 * the run of added lines that follows it (the longer run leaves the other side blank). Pure.
 */
export function sideBySide(patch: string): SideRow[] {
  const rows: SideRow[] = []
  let removed: SideCell[] = []
  let added: SideCell[] = []
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const left = removed[i]
      const right = added[i]
      rows.push({ kind: 'pair', ...(left && { left }), ...(right && { right }) })
    }
    removed = []
    added = []
  }
  const lines = patch.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const line of lines) {
    // "\ No newline at end of file" belongs to the line before it; it shows on neither side.
    if (line.startsWith('\\')) continue
    const kind = diffLineKind(line)
    if (kind === 'del') removed.push({ text: line, kind: 'del' })
    else if (kind === 'add') added.push({ text: line, kind: 'add' })
    else {
      flush()
      if (kind === 'file' || kind === 'hunk') rows.push({ kind, text: line })
      else {
        const cell: SideCell = { text: line, kind: 'context' }
        rows.push({ kind: 'pair', left: cell, right: cell })
      }
    }
  }
  flush()
  return rows
}
