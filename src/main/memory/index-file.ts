import { INDEX_MAX_BYTES, INDEX_MAX_LINES, MemoryType } from '../../shared/memory'

/**
 * `MEMORY.md`, the index of a memory folder: one line per memory,
 * `- [Name](file.md) — description`, at most {@link INDEX_MAX_LINES} lines and
 * {@link INDEX_MAX_BYTES} bytes, which is what Claude Code loads of it. Sous regenerates it from
 * the files after every write and whenever it finds it out of date; it is never merged by hand.
 */

/** What the index says about one file. */
export interface IndexEntry {
  file: string
  name: string
  description: string
  /** Absent for a file that is not a valid memory. */
  type?: MemoryType
  /** Milliseconds since the epoch; the newest are kept when not everything fits. */
  updatedAt: number
  /** The first problem of a file that is not a valid memory. */
  problem?: string
}

/** A rendered index and its size against the limits. */
export interface RenderedIndex {
  text: string
  lines: number
  bytes: number
  /** Memories listed, and memories left out because the limits were reached. */
  listed: number
  omitted: number
}

const TYPE_ORDER: readonly string[] = MemoryType.options

/**
 * The index for these entries: valid memories by type (user, feedback, project, reference) then
 * name, files with problems last. When they do not all fit, the most recently updated are kept
 * and a last line says how many were left out.
 */
export function renderIndex(entries: readonly IndexEntry[]): RenderedIndex {
  const lines = new Map(entries.map((entry) => [entry, indexLine(entry)]))
  const newestFirst = [...entries].sort((a, b) => b.updatedAt - a.updatedAt || a.file.localeCompare(b.file))
  const kept = new Set<IndexEntry>()
  let bytes = 0
  for (const [position, entry] of newestFirst.entries()) {
    const line = lines.get(entry)!
    const cost = byteLength(line) + 1
    const leftAfter = newestFirst.length - position - 1
    // Room for this line, and for the "more not listed" line if anything is still left after it.
    const reserve = leftAfter > 0 ? byteLength(overflowLine(leftAfter)) + 1 : 0
    const lineReserve = leftAfter > 0 ? 1 : 0
    if (kept.size + 1 + lineReserve > INDEX_MAX_LINES || bytes + cost + reserve > INDEX_MAX_BYTES) break
    kept.add(entry)
    bytes += cost
  }
  const listed = [...kept].sort(displayOrder).map((entry) => lines.get(entry)!)
  const omitted = entries.length - kept.size
  if (omitted > 0) listed.push(overflowLine(omitted))
  const text = listed.length > 0 ? `${listed.join('\n')}\n` : ''
  return { text, lines: listed.length, bytes: byteLength(text), listed: kept.size, omitted }
}

/** One line of the index. */
export function indexLine(entry: IndexEntry): string {
  const target = /^[\w.-]+$/.test(entry.file) ? entry.file : `<${entry.file.replace(/[<>]/g, '')}>`
  if (entry.problem !== undefined || entry.type === undefined) {
    return `- [${linkText(entry.name || entry.file)}](${target}) — (not a valid memory: ${oneLine(entry.problem ?? 'unknown problem')})`
  }
  return `- [${linkText(entry.name)}](${target}) — ${oneLine(entry.description)}`
}

function overflowLine(count: number): string {
  return `- … ${count} more ${count === 1 ? 'memory is' : 'memories are'} not listed here (the index keeps to ${INDEX_MAX_LINES} lines and ${INDEX_MAX_BYTES / 1000} KB); their files are in this folder.`
}

/**
 * Lines of an existing `MEMORY.md` that the regenerated index would lose: anything but blank
 * lines, index lines (a link to a `.md` file of the folder, whether or not it still exists: the
 * file is the memory, a line for a deleted one is stale) and Sous's "more not listed" line.
 * Another tool, or a person, may have kept notes there; they are saved before it is rewritten.
 */
export function foreignLines(existing: string): string[] {
  return existing.split(/\r?\n/).filter((line) => {
    if (line.trim() === '') return false
    if (/^- … \d+ more memor/.test(line)) return false
    const link = /^\s*[-*]\s+\[[^\]]*\]\(<?([^)>]+)>?\)/.exec(line)?.[1]?.trim()
    return !(link && /^[^/\\:]+\.md$/i.test(link))
  })
}

/**
 * The part of an index file the model is shown: the first {@link INDEX_MAX_LINES} lines or
 * {@link INDEX_MAX_BYTES} bytes, whichever comes first (a file another tool let grow is cut).
 */
export function indexForPrompt(text: string): { text: string; cut: boolean } {
  const lines = text.replace(/\s+$/, '').split(/\r?\n/)
  const kept: string[] = []
  let bytes = 0
  for (const line of lines) {
    const cost = byteLength(line) + 1
    if (kept.length >= INDEX_MAX_LINES || bytes + cost > INDEX_MAX_BYTES) return { text: kept.join('\n'), cut: true }
    kept.push(line)
    bytes += cost
  }
  return { text: kept.join('\n'), cut: false }
}

function displayOrder(a: IndexEntry, b: IndexEntry): number {
  const rank = (entry: IndexEntry) => (entry.problem !== undefined || entry.type === undefined ? TYPE_ORDER.length : TYPE_ORDER.indexOf(entry.type))
  return rank(a) - rank(b) || a.name.localeCompare(b.name) || a.file.localeCompare(b.file)
}

function linkText(text: string): string {
  return oneLine(text).replace(/[[\]]/g, '')
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}
