/**
 * One line of `--input-format stream-json`, as Claude Code reads it: a user message,
 * `{"type": "user", "message": {"role": "user", "content": "…" | [{"type": "text", "text": "…"}, …]}}`.
 * Returns the turn's text, or why the line is not one (the caller answers with an error result
 * and reads on: a bad line never ends the run).
 */
export function userTurnOf(line: string): { ok: true; text: string } | { ok: false; error: string } {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return { ok: false, error: `not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  const record = value as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null
  if (typeof record !== 'object' || record === null || record.type !== 'user') return { ok: false, error: 'expected a {"type": "user", "message": …} line' }
  const content = record.message?.content
  if (record.message?.role !== undefined && record.message.role !== 'user') return { ok: false, error: 'message.role must be "user"' }
  if (typeof content === 'string') return content.trim() ? { ok: true, text: content } : { ok: false, error: 'the message is empty' }
  if (!Array.isArray(content)) return { ok: false, error: 'message.content must be a string or an array of blocks' }
  const unsupported = content.find((block) => (block as { type?: unknown } | null)?.type !== 'text')
  if (unsupported !== undefined) return { ok: false, error: `only text blocks are read here, not ${JSON.stringify((unsupported as { type?: unknown } | null)?.type ?? unsupported)}` }
  const text = content.map((block) => String((block as { text?: unknown }).text ?? '')).join('\n')
  return text.trim() ? { ok: true, text } : { ok: false, error: 'the message is empty' }
}
