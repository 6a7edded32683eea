import type { IncomingMessage } from 'node:http'
import { cspHeader } from '../../shared/csp'
import { pageCookie, pageCookieName, proof, readCookie, servedOrigins, tokenMatches } from './auth'
import { checkRequestSite, headerValue, type RequestKind, type SiteCheck } from './request-site'

/** The WebSocket subprotocol the renderer speaks; the server selects it (never the key). */
export const SOCKET_PROTOCOL = 'sous.v1'
/** The subprotocol entry that carries the socket key: `sous-key.<hex>`. */
export const SOCKET_KEY_PREFIX = 'sous-key.'
/** The URL fragment parameter the first page load hands the socket key to the page in. */
export const SOCKET_KEY_FRAGMENT = 'sous-key'

/**
 * Who may talk to the browser host (see ws.ts for the whole design): our own `Host` names on a
 * loopback bind (defeats DNS rebinding); the per-origin `Origin`/`Sec-Fetch-Site` check
 * (request-site.ts); the run's token once, in the URL; then the page cookie for the renderer's
 * files and the socket key for the WebSocket, both derived from the token per origin. Known once
 * the server listens (the port is part of every name and origin).
 */
export class BrowserAccess {
  private port = 0
  private origins: string[] = []
  private hosts: string[] = []
  /** The Content-Security-Policy every response carries (it names the WebSocket origins). */
  csp = ''

  constructor(
    readonly token: string,
    private readonly loopback: boolean,
  ) {}

  /** Learns the bound address; called once, before any request can arrive. */
  listening(host: string, port: number): void {
    this.port = port
    this.origins = servedOrigins(host, port)
    this.hosts = this.origins.map((origin) => new URL(origin).host.toLowerCase())
    this.csp = cspHeader({ connectSrc: this.origins.map((origin) => origin.replace(/^http/, 'ws')) })
  }

  /** A rebound `evil.example` resolving to 127.0.0.1 sends `Host: evil.example:PORT`: refused on loopback. */
  hostAllowed(request: IncomingMessage): boolean {
    return !this.loopback || this.hosts.includes((request.headers.host ?? '').toLowerCase())
  }

  /** The request's own origin: `http://` and its `Host` (checked by {@link hostAllowed} first). */
  selfOrigin(request: IncomingMessage): string {
    return `http://${(request.headers.host ?? '').toLowerCase()}`
  }

  /** The `Origin`/`Sec-Fetch-Site` check for this request (request-site.ts). */
  siteAllowed(request: IncomingMessage, kind: RequestKind): SiteCheck {
    const headers = { origin: headerValue(request.headers.origin), secFetchSite: headerValue(request.headers['sec-fetch-site']) }
    return checkRequestSite(headers, kind, this.selfOrigin(request), this.origins)
  }

  /** Whether the URL carries the run's token itself (`?token=`). */
  tokenInUrl(url: URL): boolean {
    return tokenMatches(url.searchParams.get('token') ?? undefined, this.token)
  }

  /** Whether the request carries the page cookie made for its own origin. */
  pageCookiePresented(request: IncomingMessage): boolean {
    const value = readCookie(request.headers.cookie, pageCookieName(this.port))
    return tokenMatches(value, proof(this.token, 'page', this.selfOrigin(request)))
  }

  /** The `Set-Cookie` value for a page served to `origin`. */
  pageCookieFor(origin: string): string {
    return pageCookie(this.port, proof(this.token, 'page', origin))
  }

  /** The socket key the page at `origin` opens its WebSocket with. */
  socketKeyFor(origin: string): string {
    return proof(this.token, 'socket', origin)
  }

  /**
   * Whether an upgrade proves itself: the socket key for its `Origin` among the offered
   * subprotocols (the page), or the token itself in the query (tools and tests, which hold it).
   * The page cookie is never enough.
   */
  socketProofPresented(request: IncomingMessage, url: URL, origin: string): boolean {
    if (this.tokenInUrl(url)) return true
    const expected = this.socketKeyFor(origin)
    return offeredProtocols(request).some((protocol) => protocol.startsWith(SOCKET_KEY_PREFIX) && tokenMatches(protocol.slice(SOCKET_KEY_PREFIX.length), expected))
  }
}

/** The subprotocols a WebSocket upgrade offers (`Sec-WebSocket-Protocol`, comma-separated). */
export function offeredProtocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol']
  const text = Array.isArray(header) ? header.join(',') : (header ?? '')
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}
