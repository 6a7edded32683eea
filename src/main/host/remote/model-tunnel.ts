import type { Frame } from './frames'

/** The remote host's end of the model relay. */
export interface ModelTunnel {
  /** A `fetch` for the SDK: each call goes to the client as `model.request`, its answer comes back in frames. */
  fetch: typeof globalThis.fetch
  /** Takes the `model.*` frames of the client; false for any other frame. */
  onFrame(frame: Frame): boolean
  /** Fails every open request (the connection is gone); the SDK retries them as connection errors. */
  failAll(message: string): void
}


/** Headers that never cross the relay: the client adds its own credentials. */
const DROPPED = new Set(['x-api-key', 'authorization', 'host', 'content-length', 'connection'])

interface Open {
  resolve(response: Response): void
  reject(error: Error): void
  controller?: ReadableStreamDefaultController<Uint8Array>
}

/**
 * Builds the host side of the relay over `send`. The host never holds the API key: its SDK talks
 * to the relay's placeholder base URL with its placeholder key (services/model/relay.ts), and this fetch ships the request (path,
 * headers minus any credential, body) to the client, which sends it with the local key and
 * streams the answer back (`model.head`, `model.chunk`…, `model.end`).
 */
export function createModelTunnel(send: (frame: Frame) => boolean): ModelTunnel {
  const open = new Map<string, Open>()
  let next = 0
  const encoder = new TextEncoder()

  const tunnelFetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const signal = init?.signal ?? undefined
    if (signal?.aborted) throw abortError()
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((value, name) => {
      if (!DROPPED.has(name.toLowerCase())) headers[name.toLowerCase()] = value
    })
    const body = typeof init?.body === 'string' ? init.body : init?.body ? await new Response(init.body).text() : ''
    const id = `m${++next}`
    return new Promise<Response>((resolve, reject) => {
      const entry: Open = { resolve, reject }
      open.set(id, entry)
      signal?.addEventListener(
        'abort',
        () => {
          if (!open.has(id)) return
          open.delete(id)
          send({ t: 'model.abort', id })
          if (entry.controller) entry.controller.error(abortError())
          else reject(abortError())
        },
        { once: true },
      )
      if (!send({ t: 'model.request', id, method: 'POST', path: `${url.pathname}${url.search}`, headers, body })) {
        open.delete(id)
        reject(new TypeError('The connection to the local Sous is gone; the model request was not sent.'))
      }
    })
  }) as typeof globalThis.fetch

  return {
    fetch: tunnelFetch,
    onFrame(frame) {
      if (frame.t !== 'model.head' && frame.t !== 'model.chunk' && frame.t !== 'model.end' && frame.t !== 'model.error') return false
      const entry = open.get(frame.id)
      if (!entry) return true // answered after an abort: nothing waits for it
      switch (frame.t) {
        case 'model.head': {
          const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (entry.controller = controller) })
          entry.resolve(new Response(frame.status === 204 ? null : stream, { status: frame.status, headers: frame.headers }))
          break
        }
        case 'model.chunk':
          entry.controller?.enqueue(encoder.encode(frame.data))
          break
        case 'model.end':
          open.delete(frame.id)
          entry.controller?.close()
          break
        case 'model.error':
          open.delete(frame.id)
          if (entry.controller) entry.controller.error(new TypeError(frame.message))
          else entry.reject(new TypeError(`The local Sous did not send the model request: ${frame.message}`))
          break
      }
      return true
    },
    failAll(message) {
      for (const [id, entry] of open) {
        open.delete(id)
        if (entry.controller) entry.controller.error(new TypeError(message))
        else entry.reject(new TypeError(message))
      }
    },
  }
}

function abortError(): Error {
  const error = new Error('The request was aborted.')
  error.name = 'AbortError'
  return error
}
