import type * as YamlModule from 'yaml'
import { memoryProblems, type MemoryFields, type MemoryProblem } from '../../shared/memory'

/**
 * One memory file: YAML frontmatter (`name`, `description`, `type`) and a Markdown body, as
 * Claude Code writes its auto-memory files:
 *
 * ```
 * ---
 * name: Use pnpm
 * description: The user wants pnpm, not npm, in this repository
 * type: feedback
 * ---
 *
 * Run scripts with pnpm. **Why:** … **How to apply:** …
 * ```
 *
 * Parsing never throws: a file that is not a memory comes back with its problems and whatever
 * could be read, so a list can show it instead of dropping it.
 */

/** The YAML library, loaded once on first use (sessions without memories never pay for it). */
type Yaml = typeof YamlModule
let yaml: Promise<Yaml> | undefined
export function loadYaml(): Promise<Yaml> {
  yaml ??= import('yaml')
  return yaml
}

/** A memory file as read: its fields, keys of other tools kept, and what is wrong with it. */
export interface ParsedMemory {
  fields: MemoryFields
  /** Frontmatter keys other than the three, kept on rewrite so another tool's data survives. */
  extra: Record<string, unknown>
  problems: MemoryProblem[]
}

const FENCE = /^---[ \t]*$/

/** Reads a memory file's text (the YAML library must be loaded: see {@link loadYaml}). */
export function parseMemory(text: string, library: Yaml): ParsedMemory {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const empty: MemoryFields = { name: '', description: '', type: '', body: text }
  if (!FENCE.test(lines[0] ?? '')) {
    return { fields: empty, extra: {}, problems: [{ field: 'file', message: 'The file has no frontmatter (a block between --- lines with name, description and type).' }] }
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line))
  if (close < 0) return { fields: empty, extra: {}, problems: [{ field: 'file', message: 'The frontmatter is never closed (no second --- line).' }] }
  let data: unknown
  try {
    data = library.parse(lines.slice(1, close).join('\n')) ?? {}
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { fields: { ...empty, body: bodyAfter(lines, close) }, extra: {}, problems: [{ field: 'file', message: `The frontmatter is not valid YAML: ${reason}` }] }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { fields: { ...empty, body: bodyAfter(lines, close) }, extra: {}, problems: [{ field: 'file', message: 'The frontmatter must be a set of key: value lines.' }] }
  }
  const { name, description, type, ...extra } = data as Record<string, unknown>
  const problems: MemoryProblem[] = []
  const field = (key: 'name' | 'description' | 'type', value: unknown): string => {
    if (value === undefined || value === null) return ''
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    problems.push({ field: key, message: `The ${key} must be text.` })
    return ''
  }
  const fields: MemoryFields = {
    name: field('name', name),
    description: field('description', description),
    type: field('type', type),
    body: bodyAfter(lines, close),
  }
  return { fields, extra, problems: [...problems, ...memoryProblems(fields)] }
}

/** Writes a memory file's text; `extra` keys follow the three Sous owns. */
export function serializeMemory(fields: MemoryFields, extra: Record<string, unknown>, library: Yaml): string {
  const head = { name: fields.name.trim(), description: fields.description.trim(), type: fields.type.trim(), ...extra }
  // lineWidth 0: never fold a long description over several lines.
  const frontmatter = library.stringify(head, { lineWidth: 0 })
  const body = fields.body.replace(/^\s*\n/, '').replace(/\s*$/, '')
  return `---\n${frontmatter}---\n\n${body}\n`
}

/** The body: everything after the closing fence, minus the blank line that separates them. */
function bodyAfter(lines: string[], close: number): string {
  const rest = lines.slice(close + 1)
  if (rest[0]?.trim() === '') rest.shift()
  return rest.join('\n').replace(/\s*$/, '')
}
