import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { cspHeader } from '../../shared/csp'
import { err } from '../../shared/ipc/result'
import type { EventHub } from '../base/event-hub'
import {
  checkBindHost,
  generateToken,
  hostPort,
  readCookie,
  servedOrigins,
  tokenCookie,
  tokenCookieName,
  tokenMatches,
} from './auth'
import type { Router } from './router'
import { readStaticFile } from './static-files'
import { parseFrame } from './ws-frames'

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
 * Security model: every HTTP request and WebSocket upgrade must carry the per-run token, either
 * as `?token=` (first page load; it is swapped for an HttpOnly SameSite=Strict cookie and a
 * redirect that drops it from the address bar) or as that cookie (401 otherwise). The upgrade's
 * `Origin` must be one we served (403 otherwise), and for a loopback bind the `Host` header too
 * (defeats DNS rebinding). Responses carry a strict CSP. Non-loopback binds need `allowRemote`.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const host = options.host ?? '127.0.0.1'
  const bind = checkBindHost(host, options.allowRemote ?? false)
  if (!bind.ok) throw new Error(bind.message)
  const token = options.token ?? generateToken()
  const { router, events } = options.core

  // Filled in once listening; requests cannot arrive before that.
  let port = 0
  let origins: string[] = []
  let hosts: string[] = []
  let csp = ''
  const loopback = !options.allowRemote

  const presentedToken = (req: IncomingMessage, url: URL): string | undefined =>
    url.searchParams.get('token') ?? readCookie(req.headers.cookie, tokenCookieName(port))
  // A loopback host only answers to its own names: a rebound `evil.example` resolving to
  // 127.0.0.1 sends `Host: evil.example:PORT`.
  const hostAllowed = (req: IncomingMessage): boolean => !loopback || hosts.includes((req.headers.host ?? '').toLowerCase())

  const server: Server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'Internal error.')
      else res.destroy()
    })
  })

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setCommonHeaders(res, csp)
    if (!hostAllowed(req)) return send(res, 403, 'Unexpected Host header.')
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD')
      return send(res, 405, 'Method not allowed.')
    }
    const url = requestUrl(req)
    if (!url) return send(res, 400, 'Bad request.')
    const fromQuery = url.searchParams.get('token')
    if (!tokenMatches(presentedToken(req, url), token)) {
      return send(res, 401, 'Sous needs its access token: open the exact URL `sous serve` printed.')
    }
    if (fromQuery !== null) {
      // Trade the token in the URL for a cookie, and drop it from the address bar and history.
      url.searchParams.delete('token')
      res.setHeader('Set-Cookie', tokenCookie(port, token))
      res.setHeader('Location', `${url.pathname}${url.search}`)
      return send(res, 303, '')
    }
    const file = await readStaticFile(options.rendererDir, url.pathname)
    if (!file) return send(res, 404, 'Not found.')
    res.statusCode = 200
    res.setHeader('Content-Type', file.contentType)
    res.setHeader('Content-Length', file.body.length)
    res.setHeader('Cache-Control', file.contentType.startsWith('text/html') ? 'no-store' : 'no-cache')
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const url = requestUrl(req)
    if (!url || url.pathname !== WS_PATH) return refuse(socket, 404, 'Not Found')
    if (!hostAllowed(req)) return refuse(socket, 403, 'Forbidden')
    if (!tokenMatches(presentedToken(req, url), token)) return refuse(socket, 401, 'Unauthorized')
    const origin = req.headers.origin
    if (!origin || !origins.includes(origin)) return refuse(socket, 403, 'Forbidden')
    wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, origin))
  })

  function serveConnection(ws: WebSocket, origin: string): void {
    ws.on('error', () => ws.terminate())
    ws.on('message', (data: RawData) => {
      void answer(ws, origin, rawText(data))
    })
  }

  async function answer(ws: WebSocket, origin: string, text: string): Promise<void> {
    const frame = parseFrame(text)
    if (!frame.ok) {
      // Without an id there is nobody to answer; the frame is dropped.
      if (frame.id !== undefined) reply(ws, { id: frame.id, result: err('INVALID_INPUT', frame.message) })
      return
    }
    const result = await router.invoke(frame.channel, frame.payload, { transport: 'ws', origin })
    reply(ws, { id: frame.id, result })
  }

  const unsubscribe = events.subscribe((channel, payload) => {
    if (wss.clients.size === 0) return
    const text = JSON.stringify({ event: channel, payload })
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(text)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  origins = servedOrigins(host, port)
  hosts = origins.map((origin) => new URL(origin).host.toLowerCase())
  csp = cspHeader({ connectSrc: origins.map((origin) => origin.replace(/^http/, 'ws')) })
  const origin = `http://${hostPort(host, port)}`

  let closing: Promise<void> | undefined
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close() {
      closing ??= (async () => {
        unsubscribe()
        for (const client of wss.clients) client.terminate()
        wss.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
      })()
      return closing
    },
  }
}

function reply(ws: WebSocket, message: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    // The base is a placeholder: only path and query are read from it.
    return new URL(req.url ?? '/', 'http://sous.invalid')
  } catch {
    return undefined
  }
}

function setCommonHeaders(res: ServerResponse, csp: string): void {
  res.setHeader('Content-Security-Policy', csp)
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Referrer-Policy', 'no-referrer')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
}

function send(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status
  if (text) res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.end(text)
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}
