import type { IncomingMessage } from 'node:http'
import { cspHeader } from '../../shared/csp'
import { readCookie, servedOrigins, tokenCookie, tokenCookieName, tokenMatches } from './auth'

/**
 * Who may talk to the browser host: the per-run token (`?token=` or its cookie), and for a
 * loopback bind only our own `Host` names (defeats DNS rebinding); WebSocket upgrades also need an
 * `Origin` we served. Known once the server listens (the port is part of every name).
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

  /** The token cookie's name (one per port, so two hosts on one machine do not clash). */
  get cookieName(): string {
    return tokenCookieName(this.port)
  }

  /** The `Set-Cookie` value that trades the token in the URL for an HttpOnly cookie. */
  get cookie(): string {
    return tokenCookie(this.port, this.token)
  }

  /** A rebound `evil.example` resolving to 127.0.0.1 sends `Host: evil.example:PORT`: refused on loopback. */
  hostAllowed(request: IncomingMessage): boolean {
    return !this.loopback || this.hosts.includes((request.headers.host ?? '').toLowerCase())
  }

  /** Whether the request carries the token, in the query or in the cookie. */
  tokenPresented(request: IncomingMessage, url: URL): boolean {
    return tokenMatches(url.searchParams.get('token') ?? readCookie(request.headers.cookie, this.cookieName), this.token)
  }

  originAllowed(origin: string | undefined): origin is string {
    return origin !== undefined && this.origins.includes(origin)
  }
}
