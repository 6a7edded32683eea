import { isWritableMemoryFile, memoryFileName, memoryProblems, type MemoryFields, type MemoryScope } from '../../shared/memory'
import { absoluteDates } from './dates'
import type { MemoryRecord } from './folder'

/**
 * How a memory the extraction agent asked for lands in a folder, without duplicates: the memory it
 * names (by file, or by name without case) is updated; one that would not change is left alone;
 * a new one gets a file named after it. The file name the model gives is only ever looked up among
 * the folder's files — never used as a path. Project memories get absolute dates.
 */

/** A memory as the extraction agent asks for it. */
export interface AgentWrite {
  scope: MemoryScope
  /** An existing memory's file, to update it. */
  file?: string
  name: string
  description: string
  type: string
  body: string
}

export type AgentWritePlan =
  | { kind: 'write'; file: string; fields: MemoryFields; base: string | null; previousBody?: string }
  | { kind: 'unchanged'; file: string }
  | { kind: 'refused'; reason: string }

/** Plans one write against the folder's current records (pure). */
export function planAgentWrite(records: readonly MemoryRecord[], write: AgentWrite, today: Date): AgentWritePlan {
  const dated = (text: string) => (write.type.trim() === 'project' ? absoluteDates(text, today) : text)
  const fields: MemoryFields = {
    name: write.name.trim(),
    description: dated(write.description.trim()),
    type: write.type.trim(),
    body: dated(write.body.trim()),
  }
  const key = fields.name.toLowerCase()
  const existing = records.find((record) => write.file !== undefined && record.file === write.file) ?? records.find((record) => record.fields.name.trim().toLowerCase() === key && key !== '')
  const others = records.filter((record) => record !== existing).map((record) => record.fields.name)
  const problems = memoryProblems(fields, others)
  if (problems.length > 0) return { kind: 'refused', reason: problems.map((problem) => problem.message).join(' ') }
  if (existing) {
    if (!isWritableMemoryFile(existing.file)) return { kind: 'refused', reason: `${existing.file} was named by another tool; Sous leaves it to the user.` }
    if (sameFields(existing.fields, fields)) return { kind: 'unchanged', file: existing.file }
    return { kind: 'write', file: existing.file, fields, base: existing.version, previousBody: existing.fields.body }
  }
  const taken = new Set(records.map((record) => record.file))
  const wanted = memoryFileName(fields.type, fields.name)
  let file = wanted
  for (let count = 2; taken.has(file); count++) file = wanted.replace(/\.md$/, `_${count}.md`)
  return { kind: 'write', file, fields, base: null }
}

function sameFields(a: MemoryFields, b: MemoryFields): boolean {
  return a.name.trim() === b.name.trim() && a.description.trim() === b.description.trim() && a.type.trim() === b.type.trim() && a.body.trim() === b.body.trim()
}
