import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'

/** A fresh access token for one run of `sous serve`: 32 random bytes, hex. */
export function generateToken(): string {
  return randomBytes(32).toString('hex')
}

/** Compares a presented token with the expected one in constant time. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false
  const a = Buffer.from(presented, 'utf8')
  const b = Buffer.from(expected, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The name of the page cookie: per port, so two `sous serve` runs on one machine do not overwrite
 * each other. The port in the name is for that only — a browser sends every cookie of a host to
 * *every* port of it, so the name isolates nothing (see {@link proof}).
 */
export function pageCookieName(port: number): string {
  return `sous_page_${port}`
}

/** What a derived credential is for: the page cookie, or the WebSocket's key. */
export type ProofPurpose = 'page' | 'socket'

/**
 * A credential derived from the run's token for one purpose and one origin:
 * HMAC-SHA256(token, purpose + "\n" + origin), hex. Neither reveals the token, and a value made
 * for one purpose or origin (scheme, host and port) is worth nothing for another. The page cookie
 * holds the `page` value: cookies ignore ports, so any other server on the same host that the
 * browser visits receives it, and all it opens is the renderer's static files (public code). The
 * WebSocket needs the `socket` value, which never is a cookie (see ws.ts).
 */
export function proof(token: string, purpose: ProofPurpose, origin: string): string {
  return createHmac('sha256', token).update(`${purpose}\n${origin}`).digest('hex')
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/**
 * The `Set-Cookie` value for the page cookie: HttpOnly (no script reads it), SameSite=Strict, the
 * whole site, a session cookie. Not `__Host-`: that prefix demands `Secure`, which needs https
 * (Chromium makes an exception for `localhost` only, not for 127.0.0.1), and it would not help:
 * `__Host-` pins the host, never the port.
 */
export function pageCookie(port: number, value: string): string {
  return `${pageCookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`
}

/** Whether a bind address stays on this machine (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1'
  return false
}

/** `host:port` as it appears in a URL (IPv6 bracketed). */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`
}

/**
 * The origins a page we served may have. For a loopback bind: the bound address plus its
 * `localhost` spelling (both only ever reach this machine). For a remote bind: the bound address.
 */
export function servedOrigins(host: string, port: number): string[] {
  const origins = [`http://${hostPort(host, port)}`]
  if (isLoopbackHost(host) && host !== 'localhost') origins.push(`http://localhost:${port}`)
  return origins
}

/** Whether a `--host` value may be used: loopback always, anything else only with `--allow-remote`. */
export function checkBindHost(host: string, allowRemote: boolean): { ok: true; warning?: string } | { ok: false; message: string } {
  if (isLoopbackHost(host)) return { ok: true }
  if (!allowRemote) {
    return {
      ok: false,
      message:
        `Refusing to listen on ${host}: it is reachable from other machines, and whoever reaches Sous can run ` +
        'commands on this one. Use an SSH tunnel to 127.0.0.1, or pass --allow-remote if you really mean it.',
    }
  }
  return {
    ok: true,
    warning:
      `WARNING: listening on ${host}. Anyone who can reach this address and learns the token can run commands ` +
      'on this machine, and the connection is not encrypted (plain HTTP). Prefer an SSH tunnel to 127.0.0.1.',
  }
}
