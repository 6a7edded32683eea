/**
 * The renderer's Content Security Policy, in one place so the desktop shell (response header on
 * the `app://` protocol and `session.webRequest`), the browser host (`sous serve`) and the
 * `<meta>` tag in `index.html` all say the same thing.
 *
 * Why each directive: scripts only from our own origin (no inline script, no eval); inline
 * styles are allowed because Monaco and xterm set style attributes at runtime; workers from our
 * origin or `blob:` (Monaco's worker bootstrap); no plugins, frames, forms or `<base>`.
 */
const DIRECTIVES: ReadonlyArray<readonly [string, string]> = [
  ['default-src', "'none'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data: blob:"],
  ['font-src', "'self' data:"],
  ['connect-src', "'self'"],
  ['worker-src', "'self' blob:"],
  ['manifest-src', "'self'"],
  ['frame-src', "'none'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
]

/** The policy for the `<meta http-equiv="Content-Security-Policy">` tag (no header-only directives). */
export const RENDERER_CSP: string = DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ')

/** Options for {@link cspHeader}. */
export interface CspHeaderOptions {
  /** Extra `connect-src` sources, e.g. the browser host's own `ws://127.0.0.1:PORT`. */
  connectSrc?: readonly string[]
  /**
   * The Vite dev server only: its React refresh preamble is an inline script and its HMR uses a
   * WebSocket. Never set in a built app.
   */
  dev?: boolean
}

/**
 * The policy for an HTTP response header: {@link RENDERER_CSP} plus `frame-ancestors 'none'`
 * (ignored in `<meta>`), optionally widened for a WebSocket endpoint or the dev server.
 */
export function cspHeader(options: CspHeaderOptions = {}): string {
  const extraConnect = [...(options.connectSrc ?? []), ...(options.dev ? ['ws:'] : [])]
  const parts = DIRECTIVES.map(([name, value]) => {
    if (name === 'connect-src' && extraConnect.length) return `${name} ${value} ${extraConnect.join(' ')}`
    if (name === 'script-src' && options.dev) return `${name} ${value} 'unsafe-inline'`
    return `${name} ${value}`
  })
  parts.push("frame-ancestors 'none'")
  return parts.join('; ')
}

/**
 * Adds the `<meta>` CSP to the renderer's HTML. The build does this (not the source file) so the
 * dev server, whose React refresh preamble is an inline script, runs under the dev header alone.
 */
export function injectCspMeta(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${RENDERER_CSP}" />`
  // After the charset declaration, which must come first in <head>.
  if (/<meta charset[^>]*>/i.test(html)) return html.replace(/(<meta charset[^>]*>)/i, `$1\n    ${meta}`)
  return html.replace(/<head>/i, `<head>\n    ${meta}`)
}
