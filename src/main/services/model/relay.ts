import { endpointInUse } from './config'

/** The placeholder a remote host's SDK is configured with: not a credential; the local side replaces it. */
export const RELAYED_KEY = 'relayed-by-the-local-sous'
/** The base URL a remote host's SDK sees; only the path crosses the relay, the local side picks the endpoint. */
export const RELAY_BASE_URL = 'http://model-relay.invalid'

/** A Messages API request a remote host asks the local side to send. */
export interface RelayedRequest {
  method: string
  /** Path and query, e.g. `/v1/messages` or `/v1/messages?beta=true`. */
  path: string
  headers: Record<string, string>
  body: string
  signal: AbortSignal
}

/** Where the relayed answer goes, piece by piece. */
export interface RelaySink {
  head(status: number, headers: Record<string, string>): void
  chunk(text: string): void
  end(): void
  error(message: string): void
}

/** What the relay needs: the local credentials and endpoint. */
export interface ModelRelayOptions {
  /** The local environment, credentials included (the entry point's sealed copy). */
  env: NodeJS.ProcessEnv
  /** A key entered in the app wins over `ANTHROPIC_API_KEY`. */
  keyStore?: { get(): Promise<string | undefined> }
  /** The local preferences' base URL, if any. */
  baseUrl?: () => string | undefined
  /** Test seam. */
  fetch?: typeof globalThis.fetch
}

/** The Messages API paths a remote may have sent for it; anything else is refused. */
const ALLOWED_PATHS = /^\/v1\/messages(\/count_tokens)?(\?beta=true)?$/
/** Request headers passed on; the rest (and every credential the remote might send) are dropped. */
const PASSED_HEADERS = new Set(['content-type', 'accept', 'anthropic-version', 'anthropic-beta'])
/** Response headers passed back (the SDK reads the request id and retry hints). */
const RETURNED_HEADERS = new Set(['content-type', 'request-id', 'retry-after', 'retry-after-ms', 'x-should-retry', 'anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-tokens-remaining'])
/** A request body larger than this is refused (the API's own limit is 32 MB). */
const MAX_BODY = 32 * 1024 * 1024

/**
 * The local end of the model relay: sends a remote host's Messages API request with the *local*
 * credentials to the *local* endpoint, and streams the answer back through `sink`. The remote
 * chooses neither where the request goes (only a Messages API path is accepted) nor which key
 * goes with it (its headers are filtered to the API's own; the key is added here). Contract:
 * never throws and never rejects; every request ends in exactly one `end` or `error`.
 */
export function createModelRelay(options: ModelRelayOptions): (request: RelayedRequest, sink: RelaySink) => Promise<void> {
  const send = options.fetch ?? globalThis.fetch
  return async (request, sink) => {
    if (request.method !== 'POST' || !ALLOWED_PATHS.test(request.path)) return sink.error(`the relay sends only Messages API requests, not ${request.method} ${request.path.slice(0, 100)}`)
    if (request.body.length > MAX_BODY) return sink.error('the request body is larger than the API accepts')
    const apiKey = ((await options.keyStore?.get().catch(() => undefined)) ?? options.env['ANTHROPIC_API_KEY'])?.trim()
    const authToken = options.env['ANTHROPIC_AUTH_TOKEN']?.trim()
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) if (PASSED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value
    if (apiKey) headers['x-api-key'] = apiKey
    else if (authToken) headers['authorization'] = `Bearer ${authToken}`
    else {
      // The SDK reads a 401 as an authentication failure and says so in the turn's end.
      sink.head(401, { 'content-type': 'application/json' })
      sink.chunk(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'No API key on the local machine: set ANTHROPIC_API_KEY (or enter a key in Settings) where the app runs.' } }))
      return sink.end()
    }
    const { baseUrl } = endpointInUse({ ...(options.baseUrl?.() && { baseUrl: options.baseUrl() }) }, options.env)
    try {
      const response = await send(`${baseUrl}${request.path}`, { method: 'POST', headers, body: request.body, signal: request.signal })
      const returned: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        if (RETURNED_HEADERS.has(name.toLowerCase())) returned[name.toLowerCase()] = value
      })
      sink.head(response.status, returned)
      if (response.body) {
        const decoder = new TextDecoder()
        for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(piece, { stream: true })
          if (text) sink.chunk(text)
        }
        const rest = decoder.decode()
        if (rest) sink.chunk(rest)
      }
      sink.end()
    } catch (error) {
      sink.error(request.signal.aborted ? 'aborted' : `cannot reach ${baseUrl}: ${(error as Error).message}`)
    }
  }
}
