import { statSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { importsOf } from './source-scan'

/**
 * The rank rule of docs/architecture.md, as a checker the layering test runs over the sources (and,
 * to prove it can fail, over small fixture trees).
 *
 * The table lives in the document, between `<!-- ranks:begin -->` and `<!-- ranks:end -->`: one
 * row per folder, `| rank | `folder` … | job |`. A folder is written three ways:
 * - `src/main/engine/`: the folder and every subfolder no other row names;
 * - `src/main/*`: only the files directly in the folder;
 * - `src/renderer/src/features/*\/`: each subfolder is a unit of its own (all of the same rank,
 *   so none may import another).
 * A file imports only from its own unit or from units of a lower rank; tests (`*.test.ts`) are
 * composition roots of their own and are not ranked. Cycles are reported between units and
 * between files (type-only imports included: a type cycle is still a tangle).
 */

/** One row of the rank table. */
export interface RankRow {
  rank: number
  /** As written: `dir/`, `dir/*` or `dir/*\/`. */
  folder: string
}

const BEGIN = '<!-- ranks:begin -->'
const END = '<!-- ranks:end -->'

/** Reads the rank table out of a Markdown document; throws when the markers or rows are missing. */
export function readRankTable(markdown: string): RankRow[] {
  const start = markdown.indexOf(BEGIN)
  const end = markdown.indexOf(END)
  if (start < 0 || end < start) throw new Error(`The rank table needs ${BEGIN} and ${END} around it.`)
  const rows: RankRow[] = []
  for (const line of markdown.slice(start, end).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    // A row: '' | rank | folders | job | ''.
    if (cells.length < 4 || !/^\d+$/.test(cells[1] ?? '')) continue
    const rank = Number(cells[1])
    for (const match of (cells[2] ?? '').matchAll(/`([^`]+)`/g)) rows.push({ rank, folder: match[1]! })
  }
  if (rows.length === 0) throw new Error('The rank table has no rows.')
  return rows
}

/** A ranked part of the tree: a folder (with its unnamed subfolders) or a folder's own files. */
interface Unit {
  name: string
  rank: number
}

const isTest = (file: string): boolean => /\.test\.tsx?$/.test(file)

/** The unit a file belongs to: the most specific row that claims it. */
function unitOf(file: string, rows: readonly RankRow[]): Unit | undefined {
  let best: { unit: Unit; depth: number } | undefined
  for (const { rank, folder } of rows) {
    let unit: Unit | undefined
    let depth = 0
    if (folder.endsWith('/*/')) {
      const parent = folder.slice(0, -2)
      const child = file.startsWith(parent) ? file.slice(parent.length).split('/')[0] : undefined
      if (child && file.slice(parent.length).includes('/')) {
        unit = { name: `${parent}${child}/`, rank }
        depth = parent.length + 1
      }
    } else if (folder.endsWith('/*')) {
      const parent = folder.slice(0, -1)
      if (file.startsWith(parent) && !file.slice(parent.length).includes('/')) {
        unit = { name: folder, rank }
        depth = parent.length + 0.5
      }
    } else if (file.startsWith(folder)) {
      unit = { name: folder, rank }
      depth = folder.length
    }
    if (unit && (!best || depth > best.depth)) best = { unit, depth }
  }
  return best?.unit
}

/** Where a relative import lands (a file of the tree, with its extension), or undefined for packages. */
function resolveImport(root: string, file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  // `?raw`, `?worker`: Vite's suffixes name the same file.
  const target = posix.normalize(posix.join(posix.dirname(file), specifier.replace(/\?.*$/, '')))
  const candidates = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`]
  return candidates.find((candidate) => statSync(join(root, candidate), { throwIfNoEntry: false })?.isFile()) ?? target
}

/** Strongly connected groups of more than one node (Tarjan), each as a readable cycle. */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  // Iterative, so a deep import chain cannot overflow the stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: Array<{ node: string; next: Iterator<string> }> = []
    const enter = (node: string): void => {
      index.set(node, counter)
      low.set(node, counter++)
      stack.push(node)
      onStack.add(node)
      work.push({ node, next: (graph.get(node) ?? new Set<string>()).values() })
    }
    enter(start)
    while (work.length) {
      const top = work[work.length - 1]!
      const step = top.next.next()
      if (!step.done) {
        const to = step.value
        if (!index.has(to)) enter(to)
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!))
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          group.push(member)
        } while (member !== top.node)
        if (group.length > 1) groups.push(group.sort())
      }
    }
  }
  return groups
}

/**
 * Every breach of the rank rule among `files` (relative to `root`): unranked files, imports that go
 * up or sideways, cycles between units and between files. Empty when the tree is in order.
 */
export function rankViolations(root: string, files: readonly string[], rows: readonly RankRow[]): string[] {
  const out: string[] = []
  const unitGraph = new Map<string, Set<string>>()
  const fileGraph = new Map<string, Set<string>>()
  const ranked = files.filter((file) => !isTest(file))
  const known = new Set(ranked)
  for (const file of ranked) {
    const from = unitOf(file, rows)
    if (!from) {
      out.push(`${file}: its folder ${dirname(file)}/ has no rank (add a row to the table in docs/architecture.md)`)
      continue
    }
    for (const { specifier } of importsOf(file, root)) {
      const target = resolveImport(root, file, specifier)
      if (!target || !target.startsWith('src/')) continue
      if (known.has(target)) (fileGraph.get(file) ?? fileGraph.set(file, new Set()).get(file)!).add(target)
      const to = unitOf(target, rows)
      if (!to || to.name === from.name) continue
      ;(unitGraph.get(from.name) ?? unitGraph.set(from.name, new Set()).get(from.name)!).add(to.name)
      if (to.rank >= from.rank) {
        const how = to.rank === from.rank ? 'a unit of the same rank' : 'a higher rank'
        out.push(`${file} → ${specifier}: ${from.name} (rank ${from.rank}) imports ${how}, ${to.name} (rank ${to.rank})`)
      }
    }
  }
  for (const group of cyclesOf(unitGraph)) out.push(`folder cycle: ${group.join(' ↔ ')}`)
  for (const group of cyclesOf(fileGraph)) out.push(`file cycle: ${group.join(' ↔ ')}`)
  return out
}
