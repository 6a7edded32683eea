/** The `yaml` package's `parse`, passed in so the package loads only when there is a file to read. */
export type YamlParse = (source: string, options?: { prettyErrors?: boolean; uniqueKeys?: boolean }) => unknown

/** Loads the YAML parser (once). */
export async function loadYaml(): Promise<YamlParse> {
  const { parse } = await import('yaml')
  return parse as YamlParse
}

/** A Markdown file split into its YAML frontmatter and its body. */
export type Frontmatter = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; error: string }

const OPENING = /^\uFEFF?---[ \t]*\r?\n/
const CLOSING = /^---[ \t]*$/m

/**
 * Splits `---\n<yaml>\n---\n<body>`. A file without frontmatter is all body. YAML that does not
 * parse, or that is not a mapping, is an error (with the parser's line and column); never throws.
 */
export function parseFrontmatter(text: string, parse: YamlParse): Frontmatter {
  const opening = OPENING.exec(text)
  if (!opening) return { ok: true, data: {}, body: text }
  const rest = text.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (!closing) return { ok: false, error: 'the frontmatter has no closing "---" line' }
  const yaml = rest.slice(0, closing.index)
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '')
  let data: unknown
  try {
    data = parse(yaml, { prettyErrors: true, uniqueKeys: true }) ?? {}
  } catch (error) {
    // Frontmatter is often written loosely (`argument-hint: [file] [format]`, `description: a: b`),
    // which YAML rejects; like Claude Code, read such top-level values as plain text and try again.
    const retry = parseLoosely(yaml, parse)
    if (retry === undefined) return { ok: false, error: `invalid YAML frontmatter: ${(error as Error).message.split('\n')[0]}` }
    data = retry
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, error: 'the frontmatter must be a YAML mapping (key: value lines)' }
  return { ok: true, data: data as Record<string, unknown>, body }
}

/** The YAML with every unquoted top-level scalar value quoted; undefined if it still does not parse. */
function parseLoosely(yaml: string, parse: YamlParse): unknown {
  const quoted = yaml.replace(/^([A-Za-z_][\w-]*):[ \t]+(?!["'|>&*!])(.*?)[ \t]*$/gm, (_line, key: string, value: string) => `${key}: ${JSON.stringify(value)}`)
  if (quoted === yaml) return undefined
  try {
    return parse(quoted, { uniqueKeys: true }) ?? {}
  } catch {
    return undefined
  }
}

/** A frontmatter string field; anything else (a number, a list) is a problem the caller reports. */
export function stringField(data: Record<string, unknown>, key: string): { value?: string; problem?: string } {
  const value = data[key]
  if (value === undefined || value === null) return {}
  if (typeof value === 'string') return { value }
  if (typeof value === 'number' || typeof value === 'boolean') return { value: String(value) }
  return { problem: `"${key}" must be text` }
}

/** Claude Code's booleans: true/false, yes/no, on/off, 1/0 in any case. */
export function booleanField(data: Record<string, unknown>, key: string): { value?: boolean; problem?: string } {
  const value = data[key]
  if (value === undefined || value === null) return {}
  if (typeof value === 'boolean') return { value }
  const text = String(value).trim().toLowerCase()
  if (['true', 'yes', 'on', '1'].includes(text)) return { value: true }
  if (['false', 'no', 'off', '0'].includes(text)) return { value: false }
  return { problem: `"${key}" must be true or false` }
}

/**
 * A list field given as a YAML list or as one string separated by commas or spaces (outside
 * parentheses, so `Bash(git add *) Bash(git commit *)` stays two rules).
 */
export function listField(data: Record<string, unknown>, key: string): { value: string[]; problem?: string } {
  const value = data[key]
  if (value === undefined || value === null) return { value: [] }
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string')) return { value: [], problem: `"${key}" must be a list of text` }
    return { value: value.map((item) => item.trim()).filter(Boolean) }
  }
  if (typeof value !== 'string') return { value: [], problem: `"${key}" must be text or a list` }
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const char of value) {
    if (char === '(') depth++
    if (char === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current.trim()) out.push(current.trim())
      current = ''
    } else current += char
  }
  if (current.trim()) out.push(current.trim())
  return { value: out }
}
