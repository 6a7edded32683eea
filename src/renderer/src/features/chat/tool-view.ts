import { structuredPatch } from 'diff'

/** One line of a diff as a tool card shows it. */
export interface DiffLine {
  kind: 'add' | 'del' | 'ctx' | 'hunk'
  text: string
}

/** Most lines a card renders; a bigger diff says how much was left out. */
const MAX_LINES = 400

/** The change an Edit/Write made, from its result `details` ({ before, after }); `undefined` for other tools. */
export function fileChangeOf(details: unknown): { filePath: string; lines: DiffLine[]; added: number; removed: number; cut: number } | undefined {
  const d = details as { filePath?: unknown; before?: unknown; after?: unknown } | null | undefined
  if (!d || typeof d.before !== 'string' || typeof d.after !== 'string') return undefined
  const patch = structuredPatch('a', 'b', d.before, d.after, '', '', { context: 3 })
  const lines: DiffLine[] = []
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` })
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue // "\ No newline at end of file"
      const kind = line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : 'ctx'
      if (kind === 'add') added++
      if (kind === 'del') removed++
      lines.push({ kind, text: line.slice(1) })
    }
  }
  const cut = Math.max(0, lines.length - MAX_LINES)
  return { filePath: typeof d.filePath === 'string' ? d.filePath : '', lines: lines.slice(0, MAX_LINES), added, removed, cut }
}

/** The label of a tool's result section: what the user finds when opening it. */
export function resultLabel(name: string, isError: boolean): string {
  if (isError) return 'Error'
  if (name === 'Read') return 'File excerpt'
  if (name === 'Bash') return 'Output'
  if (name === 'Edit' || name === 'Write') return 'Result'
  return 'Result'
}

/** Whether the call's result says the user rejected it (the gate marks it so), rather than that it failed. */
export function isRejected(result: { isError: boolean; details?: unknown } | undefined): boolean {
  const details = result?.details
  return result?.isError === true && typeof details === 'object' && details !== null && (details as { rejected?: unknown }).rejected === true
}
