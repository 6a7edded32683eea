import type { IncomingMessage, ServerResponse } from 'node:http'
import { readStaticFile } from './static-files'
import { SOCKET_KEY_FRAGMENT, type BrowserAccess } from './ws-access'

const UNAUTHORIZED = 'Sous needs its access token: open the exact URL `sous serve` printed.'

/**
 * The browser host's plain HTTP side: the built renderer's files, behind the access checks. The
 * token arrives once in the URL and is traded for the page cookie (derived from it, see auth.ts)
 * and a redirect that drops it from the address bar and history; the redirect's fragment hands
 * the page its socket key (a fragment never goes to any server, nor into a Referer).
 */
export async function serveHttp(request: IncomingMessage, response: ServerResponse, access: BrowserAccess, rendererDir: string): Promise<void> {
  setCommonHeaders(response, access.csp)
  if (!access.hostAllowed(request)) return send(response, 403, 'Unexpected Host header.')
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD')
    return send(response, 405, 'Method not allowed.')
  }
  const site = access.siteAllowed(request, 'http')
  if (!site.ok) return send(response, 403, site.reason)
  const url = requestUrl(request)
  if (!url) return send(response, 400, 'Bad request.')
  if (url.searchParams.has('token')) {
    if (!access.tokenInUrl(url)) return send(response, 401, UNAUTHORIZED)
    const origin = access.selfOrigin(request)
    url.searchParams.delete('token')
    response.setHeader('Set-Cookie', access.pageCookieFor(origin))
    response.setHeader('Cache-Control', 'no-store')
    response.setHeader('Location', `${url.pathname}${url.search}#${SOCKET_KEY_FRAGMENT}=${access.socketKeyFor(origin)}`)
    return send(response, 303, '')
  }
  if (!access.pageCookiePresented(request)) return send(response, 401, UNAUTHORIZED)
  const file = await readStaticFile(rendererDir, url.pathname)
  if (!file) return send(response, 404, 'Not found.')
  response.statusCode = 200
  response.setHeader('Content-Type', file.contentType)
  response.setHeader('Content-Length', file.body.length)
  response.setHeader('Cache-Control', file.contentType.startsWith('text/html') ? 'no-store' : 'no-cache')
  response.end(request.method === 'HEAD' ? undefined : file.body)
}

/** The request's path and query; undefined when the target cannot be parsed. */
export function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    // The base is a placeholder: only path and query are read from it.
    return new URL(request.url ?? '/', 'http://sous.invalid')
  } catch {
    return undefined
  }
}

/** Answers with a short plain-text body (or none). */
export function send(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status
  if (text) response.setHeader('Content-Type', 'text/plain; charset=utf-8')
  response.end(text)
}

function setCommonHeaders(response: ServerResponse, csp: string): void {
  response.setHeader('Content-Security-Policy', csp)
  response.setHeader('X-Content-Type-Options', 'nosniff')
  response.setHeader('X-Frame-Options', 'DENY')
  response.setHeader('Referrer-Policy', 'no-referrer')
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
}
