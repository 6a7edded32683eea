/** A request id as the client chose it (the renderer's client uses numbers). */
export type FrameId = number | string

/** A request frame read from the WebSocket, or why it is not one. */
export type ParsedFrame =
  | { ok: true; id: FrameId; channel: string; payload: unknown }
  | { ok: false; id?: FrameId; message: string }

/**
 * Reads `{id, channel, payload}` from a text frame. Never throws: a frame that is not JSON or has
 * the wrong shape comes back as `{ok:false}` with the id when one can be recovered, so the host
 * can answer INVALID_INPUT to it.
 */
export function parseFrame(text: string): ParsedFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, message: 'The frame is not valid JSON.' }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'A request frame must be an object {id, channel, payload}.' }
  }
  const record = value as Record<string, unknown>
  const id = validId(record.id) ? record.id : undefined
  if (id === undefined) return { ok: false, message: 'A request frame needs an id (a number or a short string).' }
  if (typeof record.channel !== 'string') return { ok: false, id, message: 'A request frame needs a channel name.' }
  return { ok: true, id, channel: record.channel, payload: record.payload }
}

function validId(id: unknown): id is FrameId {
  return (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.length > 0 && id.length <= 200)
}
