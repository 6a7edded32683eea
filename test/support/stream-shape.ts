/**
 * The shape of a `--output-format stream-json` transcript: for each kind of line (`type`, plus
 * `subtype`, the stream event's type, or the content block types of a message), the JSON type of
 * every field, one level into `message` and `event`. Values are never kept, so a shape recorded
 * from Claude Code can be committed and compared with Sous's field by field.
 */
export type StreamShape = Record<string, Record<string, string>>

/** The shape of a transcript's lines (each one JSON object). */
export function streamShape(lines: readonly unknown[]): StreamShape {
  const shape: StreamShape = {}
  for (const line of lines) {
    if (typeof line !== 'object' || line === null) continue
    const record = line as Record<string, unknown>
    const fields = (shape[kindOf(record)] ??= {})
    for (const [key, value] of Object.entries(record)) {
      add(fields, key, value)
      if ((key === 'message' || key === 'event') && isObject(value)) for (const [inner, v] of Object.entries(value)) add(fields, `${key}.${inner}`, v)
    }
  }
  return shape
}

/** A line's kind: `assistant:tool_use`, `user:tool_result`, `stream_event:content_block_delta`, `system:init`, `result:success`. */
export function kindOf(record: Record<string, unknown>): string {
  const type = String(record['type'])
  if (typeof record['subtype'] === 'string') return `${type}:${record['subtype']}`
  if (type === 'stream_event' && isObject(record['event'])) return `${type}:${String(record['event']['type'])}`
  const message = record['message']
  if ((type === 'assistant' || type === 'user') && isObject(message)) {
    const content = message['content']
    const blocks = Array.isArray(content) ? [...new Set(content.map((block) => (isObject(block) ? String(block['type']) : typeof block)))].sort() : ['string']
    return `${type}:${blocks.join('+')}`
  }
  return type
}

function add(fields: Record<string, string>, key: string, value: unknown): void {
  const type = jsonType(value)
  const known = fields[key]
  fields[key] = known === undefined || known === type ? type : [...new Set([...known.split('|'), type])].sort().join('|')
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
