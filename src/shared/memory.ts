import { z } from 'zod'

/**
 * The memory vocabulary both sides share: the four types, the two scopes, the limits of the
 * index, and the field rules. The memory browser validates as the user types with the same
 * functions the main process applies before it writes, so the two can never disagree.
 */

/** What a memory is about (Claude Code's auto-memory types). */
export const MemoryType = z.enum(['user', 'feedback', 'project', 'reference'])
export type MemoryType = z.infer<typeof MemoryType>

/** Where a memory applies: every project (the user's), or one project. */
export const MemoryScope = z.enum(['user', 'project'])
export type MemoryScope = z.infer<typeof MemoryScope>

/** A person's words for each type, with what belongs there (the browser's type picker). */
export const MEMORY_TYPE_HELP: Record<MemoryType, string> = {
  user: 'Who the user is: role, expertise, how they like to work',
  feedback: 'Guidance on how to work, with **Why:** and **How to apply:**',
  project: 'Facts about the work in progress: goals, decisions, deadlines (absolute dates)',
  reference: 'Where information lives outside the code: dashboards, tickets, docs',
}

/** The index (`MEMORY.md`) the model sees: at most this many lines… */
export const INDEX_MAX_LINES = 200
/** …and this many bytes (UTF-8), as Claude Code loads it. */
export const INDEX_MAX_BYTES = 25_000

export const NAME_MAX = 100
export const DESCRIPTION_MAX = 250
/** A memory is a note, not a document: the body is capped. */
export const BODY_MAX = 100_000

/** The index file of a memory folder; never a memory itself. */
export const INDEX_FILE = 'MEMORY.md'

/** The editable part of a memory: frontmatter fields and body. */
export const MemoryFields = z.object({
  name: z.string().max(1000),
  description: z.string().max(5000),
  type: z.string().max(100),
  body: z.string().max(BODY_MAX * 2),
})
export type MemoryFields = z.infer<typeof MemoryFields>

/** One problem with a memory, tied to the field it is about. */
export const MemoryProblem = z.object({
  field: z.enum(['name', 'description', 'type', 'body', 'file']),
  message: z.string(),
})
export type MemoryProblem = z.infer<typeof MemoryProblem>

/**
 * What is wrong with a memory's fields, in field order; empty when it may be saved.
 * `otherNames` are the names of the other memories of the same scope (names are unique per
 * scope, compared without case).
 */
export function memoryProblems(fields: MemoryFields, otherNames: Iterable<string> = []): MemoryProblem[] {
  const problems: MemoryProblem[] = []
  const name = fields.name.trim()
  if (name === '') problems.push({ field: 'name', message: 'A name is required.' })
  else if (/[\r\n]/.test(fields.name)) problems.push({ field: 'name', message: 'The name must be one line.' })
  else if (name.length > NAME_MAX) problems.push({ field: 'name', message: `The name is longer than ${NAME_MAX} characters.` })
  else {
    const key = name.toLowerCase()
    for (const other of otherNames) {
      if (other.trim().toLowerCase() === key) {
        problems.push({ field: 'name', message: `Another memory of this scope is already named "${other.trim()}".` })
        break
      }
    }
  }
  const description = fields.description.trim()
  if (description === '') problems.push({ field: 'description', message: 'A one-line description is required (it decides when the memory is recalled).' })
  else if (/[\r\n]/.test(description)) problems.push({ field: 'description', message: 'The description must be one line.' })
  else if (description.length > DESCRIPTION_MAX) problems.push({ field: 'description', message: `The description is longer than ${DESCRIPTION_MAX} characters.` })
  const type = MemoryType.safeParse(fields.type)
  if (!type.success) problems.push({ field: 'type', message: `The type must be one of ${MemoryType.options.join(', ')}${fields.type ? ` (not "${fields.type}")` : ''}.` })
  if (fields.body.trim() === '') problems.push({ field: 'body', message: 'The body is empty.' })
  else if (fields.body.length > BODY_MAX) problems.push({ field: 'body', message: `The body is longer than ${BODY_MAX} characters.` })
  else if (type.success && type.data === 'feedback') problems.push(...feedbackProblems(fields.body))
  return problems
}

/** A feedback memory says why and how: `**Why:**` and `**How to apply:**` lines. */
function feedbackProblems(body: string): MemoryProblem[] {
  const missing = [
    ['**Why:**', /\*\*Why:\*\*/i],
    ['**How to apply:**', /\*\*How to apply:\*\*/i],
  ].flatMap(([label, pattern]) => ((pattern as RegExp).test(body) ? [] : [label as string]))
  if (missing.length === 0) return []
  return [{ field: 'body', message: `A feedback memory needs ${missing.join(' and ')} in its body.` }]
}

/**
 * The file name Sous gives a memory: `<type>_<words of the name>.md`, lower case, as Claude Code
 * names its memory files (`feedback_use_pnpm.md`).
 */
export function memoryFileName(type: string, name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '')
  const prefix = MemoryType.safeParse(type).success ? type : 'memory'
  return `${prefix}_${words || 'untitled'}.md`
}

/**
 * File names Sous writes: one segment, a letter or digit first, `.md` last, never the index.
 * Files written by other tools may be named otherwise; they are read, but renamed before Sous
 * writes them.
 */
export function isWritableMemoryFile(file: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/.test(file) && file.toUpperCase() !== INDEX_FILE && !file.includes('..')
}
