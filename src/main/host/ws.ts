import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { err } from '../../shared/ipc/result'
import type { EventHub } from '../base/event-hub'
import { coalesceDeltas } from './coalesce-deltas'
import { checkBindHost, generateToken, hostPort } from './auth'
import type { Router } from './router'
import { BrowserAccess, SOCKET_PROTOCOL } from './ws-access'
import { parseFrame } from './ws-frames'
import { requestUrl, send, serveHttp } from './ws-http'

/** Where the renderer's WebSocket client connects (see `src/renderer/src/api`). */
export const WS_PATH = '/ws'
/** Large enough for the biggest request the contract allows (a 1 MB prompt, JSON-escaped). */
const MAX_FRAME_BYTES = 8 * 1024 * 1024

/** Options for {@link startBrowserHost}. */
export interface BrowserHostOptions {
  core: { router: Router; events: EventHub }
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  /** Default `127.0.0.1`. */
  host?: string
  /** Default 0: any free port. */
  port?: number
  /** Default: a fresh random token. */
  token?: string
  /** Required to bind anything but loopback. */
  allowRemote?: boolean
  /** A request that failed unexpectedly (the client got a 500); default: the console. */
  onError?(error: unknown): void
}

/** A running browser host. */
export interface BrowserHost {
  /** The URL to open, token included. */
  readonly url: string
  readonly origin: string
  readonly port: number
  readonly token: string
  /** Closes every connection and the server. Idempotent. */
  close(): Promise<void>
}

/**
 * Serves the renderer and the contract over HTTP + WebSocket (`sous serve`).
 *
 * Security model. The run's token (printed in the URL) is the one secret; it is never put in a
 * cookie, because a browser sends a host's cookies to every port of it — any other server on
 * 127.0.0.1 the browser visits would receive it. Instead:
 * - The first load, `/?token=T`, is answered with a 303 that drops the token from the address bar,
 *   sets the **page cookie** `sous_page_<port>` = HMAC(T, "page", origin) (HttpOnly,
 *   SameSite=Strict), and hands the page its **socket key** HMAC(T, "socket", origin) in the
 *   redirect's fragment (`#sous-key=…`), which no browser sends to any server. The page moves the
 *   key to its origin's localStorage — scheme, host *and port* scoped, so no other port's page
 *   can read it — and removes the fragment (renderer `api/socket-key.ts`).
 * - The page cookie opens only the renderer's static files (public code). That is all another
 *   local server learns when the browser sends it the cookie.
 * - The WebSocket — every channel, `pty.*` and the other state-changing ones included — opens only
 *   with the socket key as a subprotocol (`sous-key.<hex>`, sent by the page to its own origin
 *   and nowhere else; the server selects `sous.v1`, never echoes the key), or with the token
 *   itself in the query for tools that hold it. So each connection that can change anything
 *   carries a fresh proof the cookie cannot supply, and one that comes from another origin has
 *   no key for ours (keys are per origin).
 * - Every HTTP request and upgrade passes the per-origin `Origin`/`Sec-Fetch-Site` check
 *   (request-site.ts): a page of another port is same-site with us, so only same-origin passes.
 *   For a loopback bind the `Host` must be one of our names (defeats DNS rebinding).
 * Responses carry a strict CSP. Non-loopback binds need `allowRemote`.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const host = options.host ?? '127.0.0.1'
  const bind = checkBindHost(host, options.allowRemote ?? false)
  if (!bind.ok) throw new Error(bind.message)
  const access = new BrowserAccess(options.token ?? generateToken(), !options.allowRemote)
  const onError = options.onError ?? ((error: unknown) => console.error('[sous] browser host request failed:', error))

  const server: Server = createServer((request, response) => {
    serveHttp(request, response, access, options.rendererDir).catch((error: unknown) => {
      onError(error)
      if (!response.headersSent) send(response, 500, 'Internal error.')
      else response.destroy()
    })
  })
  // Selects our protocol when the page offers it (a browser fails a handshake that selects none
  // of the offered ones); the `sous-key.` entry is never selected, so it is never echoed.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: (offered) => (offered.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false) })
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const origin = checkUpgrade(request, socket, access)
    if (origin) sockets.handleUpgrade(request, socket, head, (client) => serveClient(client, origin, options.core.router))
  })
  const unsubscribe = broadcast(options.core.events, sockets)

  await listen(server, host, options.port ?? 0)
  const port = (server.address() as AddressInfo).port
  access.listening(host, port)
  const origin = `http://${hostPort(host, port)}`

  let closing: Promise<void> | undefined
  return {
    url: `${origin}/?token=${access.token}`,
    origin,
    port,
    token: access.token,
    close() {
      closing ??= (async () => {
        unsubscribe()
        for (const client of sockets.clients) client.terminate()
        sockets.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
      })()
      return closing
    },
  }
}

/** Refuses an upgrade that is not ours (path, Host, Origin/Sec-Fetch-Site, proof); returns the Origin to accept. */
function checkUpgrade(request: IncomingMessage, socket: Duplex, access: BrowserAccess): string | undefined {
  socket.on('error', () => socket.destroy())
  const url = requestUrl(request)
  if (!url || url.pathname !== WS_PATH) return refuse(socket, 404, 'Not Found')
  if (!access.hostAllowed(request)) return refuse(socket, 403, 'Forbidden')
  if (!access.siteAllowed(request, 'websocket').ok) return refuse(socket, 403, 'Forbidden')
  const origin = access.selfOrigin(request)
  if (!access.socketProofPresented(request, url, origin)) return refuse(socket, 401, 'Unauthorized')
  return origin
}

/** One browser tab: each frame is a request for the router, answered with its id. */
function serveClient(client: WebSocket, origin: string, router: Router): void {
  client.on('error', () => client.terminate())
  client.on('message', (data: RawData) => {
    void answer(client, origin, router, rawText(data))
  })
}

async function answer(client: WebSocket, origin: string, router: Router, text: string): Promise<void> {
  const frame = parseFrame(text)
  if (!frame.ok) {
    // Without an id there is nobody to answer; the frame is dropped.
    if (frame.id !== undefined) reply(client, { id: frame.id, result: err('INVALID_INPUT', frame.message) })
    return
  }
  const result = await router.invoke(frame.channel, frame.payload, { transport: 'ws', origin })
  reply(client, { id: frame.id, result })
}

/**
 * Pushes every event of the hub to every open tab, streamed deltas merged per frame (see
 * coalesce-deltas.ts); returns the unsubscribe function, which sends what is still held.
 */
function broadcast(events: EventHub, sockets: WebSocketServer): () => void {
  const coalescer = coalesceDeltas((channel, payload) => {
    if (sockets.clients.size === 0) return
    const text = JSON.stringify({ event: channel, payload })
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(text)
  })
  const unsubscribe = events.subscribe(coalescer.listener)
  return () => {
    unsubscribe()
    coalescer.flush()
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function reply(client: WebSocket, message: unknown): void {
  if (client.readyState === client.OPEN) client.send(JSON.stringify(message))
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

function refuse(socket: Duplex, status: number, reason: string): undefined {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  return undefined
}
