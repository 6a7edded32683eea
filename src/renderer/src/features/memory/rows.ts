import type { MemoryDocument } from '../../../../shared/ipc/contract'
import { MemoryType, type MemoryScope } from '../../../../shared/memory'

/**
 * The memory list as rows: a header per scope and per type, then the memories of that group by
 * name. Filtering is the hot path while typing (a thousand memories, a keystroke budget of 16 ms):
 * each memory's searchable text is lowered once, when the list arrives, and a keystroke only
 * scans those strings.
 */

export type Row =
  | { kind: 'scope'; key: string; scope: MemoryScope; count: number }
  | { kind: 'type'; key: string; scope: MemoryScope; type: string; count: number }
  | { kind: 'memory'; key: string; memory: MemoryDocument }

/** A memory with its search text prepared. */
export interface Searchable {
  memory: MemoryDocument
  haystack: string
}

const SCOPES: readonly MemoryScope[] = ['user', 'project']
/** Groups in order: the four types, then files that are not valid memories. */
export const GROUPS: readonly string[] = [...MemoryType.options, 'problems']

/** Prepares the list for filtering (once per list): search text lowered, memories sorted by name. */
export function searchable(memories: readonly MemoryDocument[]): Searchable[] {
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
  return [...memories]
    .sort((a, b) => collator.compare(a.name || a.file, b.name || b.file))
    .map((memory) => ({ memory, haystack: `${memory.name}\n${memory.description}\n${memory.file}\n${memory.type}\n${memory.body}`.toLowerCase() }))
}

/** The group a memory is listed under. */
export function groupOf(memory: MemoryDocument): string {
  return memory.problems.length > 0 || !(MemoryType.options as readonly string[]).includes(memory.type) ? 'problems' : memory.type
}

/** A key that names a memory across the browser. */
export function memoryKey(scope: MemoryScope, file: string): string {
  return `${scope}/${file}`
}

/**
 * The rows for a query: every word must appear (in the name, description, file, type or body);
 * empty groups are left out, but both scopes always show (an empty scope says so).
 */
export function rowsFor(items: readonly Searchable[], query: string): Row[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const grouped = new Map<string, MemoryDocument[]>()
  for (const item of items) {
    if (words.length > 0 && !words.every((word) => item.haystack.includes(word))) continue
    const key = `${item.memory.scope}/${groupOf(item.memory)}`
    const list = grouped.get(key)
    if (list) list.push(item.memory)
    else grouped.set(key, [item.memory])
  }
  const rows: Row[] = []
  for (const scope of SCOPES) {
    const groups = GROUPS.map((type) => ({ type, memories: grouped.get(`${scope}/${type}`) ?? [] })).filter((group) => group.memories.length > 0)
    rows.push({ kind: 'scope', key: `scope:${scope}`, scope, count: groups.reduce((sum, group) => sum + group.memories.length, 0) })
    for (const group of groups) {
      rows.push({ kind: 'type', key: `type:${scope}/${group.type}`, scope, type: group.type, count: group.memories.length })
      for (const memory of group.memories) rows.push({ kind: 'memory', key: memoryKey(scope, memory.file), memory })
    }
  }
  return rows
}
