import { protocol, type Protocol } from 'electron'
import { APP_SCHEME } from '../host/sender-policy'
import { readAppFile } from './app-protocol'

/**
 * Declares `app://` as a standard, secure scheme. Must run before the app is ready. The renderer
 * is loaded from it rather than from the file protocol, which would grant file-wide privileges.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ])
}

/** Serves the built renderer on `app://sous/`, read-only, with the CSP on every response. */
export function serveAppProtocol(target: Protocol, rendererDir: string, csp: string): void {
  target.handle(APP_SCHEME, async (request) => {
    const headers = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers })
    const file = await readAppFile(rendererDir, request.url)
    if (!file) return new Response('Not found', { status: 404, headers })
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
      status: 200,
      headers: { ...headers, 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' },
    })
  })
}
