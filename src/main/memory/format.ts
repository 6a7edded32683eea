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

/**
 * Reads a memory file's text. The YAML library is needed only for frontmatter that is not plain
 * `key: text` lines; without it such a file returns `undefined` (load it, see {@link loadYaml}, and
 * ask again), so listing files Sous and Claude Code wrote never loads it.
 */
export function parseMemory(text: string, library: Yaml): ParsedMemory
export function parseMemory(text: string, library: Yaml | undefined): ParsedMemory | undefined
export function parseMemory(text: string, library: Yaml | undefined): ParsedMemory | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const empty: MemoryFields = { name: '', description: '', type: '', body: text }
  if (!FENCE.test(lines[0] ?? '')) {
    return { fields: empty, extra: {}, problems: [{ field: 'file', message: 'The file has no frontmatter (a block between --- lines with name, description and type).' }] }
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line))
  if (close < 0) return { fields: empty, extra: {}, problems: [{ field: 'file', message: 'The frontmatter is never closed (no second --- line).' }] }
  let data: unknown = simpleFrontmatter(lines.slice(1, close))
  if (data === undefined && library === undefined) return undefined
  try {
    data ??= library!.parse(lines.slice(1, close).join('\n')) ?? {}
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

/**
 * The frontmatter Sous and Claude Code write — `key: plain text` lines — read without the YAML
 * library, which costs ~0.2 ms a file (a thousand memories would take a fifth of a second). Only
 * text that YAML reads as the same plain string takes this path; anything else (quotes, lists,
 * block scalars, comments, values YAML would read as numbers, booleans or null) returns
 * `undefined` and goes to the library.
 */
export function simpleFrontmatter(lines: readonly string[]): Record<string, string> | undefined {
  const data: Record<string, string> = {}
  for (const line of lines) {
    if (line.trim() === '') continue
    const match = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*)$/.exec(line)
    if (!match) return undefined
    const [, key, raw] = match as unknown as [string, string, string]
    const value = raw.trimEnd()
    if (Object.hasOwn(data, key) || !isPlainText(value)) return undefined
    data[key] = value
  }
  return data
}

/** A value YAML reads as this very string: no indicator first, no `: ` or ` #` inside, not a typed scalar. */
function isPlainText(value: string): boolean {
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false
  if (/:\s|\s#|:$/.test(value)) return false
  return !/^(?:~|null|true|false|[-+]?\.?\d|[-+]?\.(?:inf|nan))/i.test(value)
}

/** The body: everything after the closing fence, minus the blank line that separates them. */
function bodyAfter(lines: string[], close: number): string {
  const rest = lines.slice(close + 1)
  if (rest[0]?.trim() === '') rest.shift()
  return rest.join('\n').replace(/\s*$/, '')
}
