import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { startupMark } from '../../base/startup-marks'
import { LightHeaders } from './light-headers'

/**
 * A `fetch` for the SDK over node:http/https. Why not the global one: on Node 20 the first call of
 * the global `fetch` loads undici's whole client (its HTTP parser is WebAssembly), which costs a
 * cold `sous -p` ~30 MB of peak memory and ~100 ms (bench/startup.bench.ts measures both). The SDK
 * takes a `fetch` option for exactly this; it reads `ok`, `status`, `headers`, `url`, `body` (an
 * async iterable of bytes) and `text()`/`json()` of what this returns.
 *
 * What it does not do (nor did the global fetch for us): proxies from the environment, HTTP/2.
 * Redirects are not followed (the Messages API does not redirect; a 3xx is an error like any other).
 */
export async function httpFetch(input: string | URL | { url: string }, init: HttpFetchInit = {}): Promise<HttpFetchResponse> {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`fetch: unsupported protocol ${url.protocol}`)
  const signal = init.signal ?? undefined
  if (signal?.aborted) throw abortError(signal)
  const body = typeof init.body === 'string' || init.body instanceof Uint8Array ? init.body : init.body == null ? undefined : String(init.body)
  const headers = headerObject(init.headers)
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) headers['content-length'] = String(Buffer.byteLength(body))
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const request = send(url, { method: init.method ?? 'GET', headers })
    let answer: IncomingMessage | undefined
    // As the global fetch: an abort fails whatever is pending (the wait, or the body's reading) with an AbortError.
    const onAbort = (): void => {
      const error = abortError(signal!)
      answer?.destroy(error)
      request.destroy(error)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    request.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort)
      // Shaped as the global fetch fails, so the SDK sees a connection error (with the cause kept).
      reject(signal?.aborted ? abortError(signal) : Object.assign(new TypeError('fetch failed'), { cause: error }))
    })
    request.once('response', (response) => {
      answer = response
      response.once('close', () => signal?.removeEventListener('abort', onAbort))
      resolve(new HttpFetchResponse(url.href, response))
    })
    request.end(body, () => startupMark('wire'))
  })
}

/** The part of `RequestInit` the SDK passes. */
export interface HttpFetchInit {
  method?: string
  headers?: { forEach(callback: (value: string, name: string) => void): void } | Record<string, string> | Array<[string, string]> | undefined
  body?: unknown
  signal?: AbortSignal | null
}

/** The response the SDK reads: status, headers, and the body as a stream of bytes or as text. */
export class HttpFetchResponse {
  readonly status: number
  readonly statusText: string
  readonly ok: boolean
  readonly headers: LightHeaders
  readonly redirected = false
  readonly type = 'basic'
  private used = false

  constructor(
    readonly url: string,
    private readonly message: IncomingMessage,
  ) {
    this.status = message.statusCode ?? 0
    this.statusText = message.statusMessage ?? ''
    this.ok = this.status >= 200 && this.status < 300
    // Not the global Headers: its first use loads undici (see light-headers.ts); the SDK reads these by get/entries only.
    this.headers = new LightHeaders()
    const raw = message.rawHeaders
    for (let index = 0; index + 1 < raw.length; index += 2) this.headers.append(raw[index]!, raw[index + 1]!)
  }

  /** The body, once: an async iterable of byte chunks (what the SDK's stream reader takes). */
  get body(): AsyncIterable<Uint8Array> & { cancel(): Promise<void> } {
    const message = this.message
    this.used = true
    return {
      [Symbol.asyncIterator]: () => message[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>,
      cancel: async () => {
        message.destroy()
      },
    }
  }

  get bodyUsed(): boolean {
    return this.used
  }

  async text(): Promise<string> {
    this.used = true
    const chunks: Buffer[] = []
    for await (const chunk of this.message) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }
}

function headerObject(headers: HttpFetchInit['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  if (!headers) return out
  if (!Array.isArray(headers) && typeof headers.forEach === 'function') {
    ;(headers as { forEach(callback: (value: string, name: string) => void): void }).forEach((value, name) => (out[name] = value))
    return out
  }
  const entries = Array.isArray(headers) ? headers : Object.entries(headers as Record<string, string>)
  for (const [name, value] of entries) if (name !== undefined && value !== undefined) out[name] = String(value)
  return out
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  return Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })
}
