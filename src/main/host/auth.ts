import { randomBytes, timingSafeEqual } from 'node:crypto'
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
 * The cookie that carries the token after the first page load. Named per port because cookies
 * are not isolated by port: two `sous serve` runs on one machine must not overwrite each other.
 */
export function tokenCookieName(port: number): string {
  return `sous_token_${port}`
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

/** The `Set-Cookie` value for the token: HttpOnly, SameSite=Strict, whole site. */
export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`
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
