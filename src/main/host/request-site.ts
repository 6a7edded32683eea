/**
 * The per-origin check every request to the browser host passes, from the headers browsers set
 * and pages cannot forge: `Origin` and `Sec-Fetch-Site`. Another server on the same host (any
 * port) is *same-site* with Sous — cookies and SameSite=Strict do not tell the two apart — so the
 * check is on the exact origin (scheme, host and port), never on the site.
 *
 * - HTTP: `Sec-Fetch-Site` must be `same-origin` (the page's own loads) or `none` (the user typed
 *   or opened the URL); `same-site` and `cross-site` are refused, so a page of another port cannot
 *   even load Sous's files with the page cookie. An `Origin`, when sent, must be the request's own.
 * - WebSocket upgrade: `Origin` is required and must be the request's own origin (one Sous served);
 *   `Sec-Fetch-Site`, when sent, must be `same-origin`.
 *
 * Clients that are not browsers send neither header; they cannot be told apart from a browser by
 * headers at all, which is why the credential, not this check, is what keeps them out.
 */

/** The two request headers the check reads. */
export interface SiteHeaders {
  origin?: string | undefined
  secFetchSite?: string | undefined
}

/** What kind of request is checked. */
export type RequestKind = 'http' | 'websocket'

/** Passed, or refused with a reason for the 403 body. */
export type SiteCheck = { ok: true } | { ok: false; reason: string }

/**
 * Whether a request with these headers may reach Sous. `self` is the request's own origin
 * (`http://` + its `Host`, already checked against the names Sous serves), `allowed` the origins
 * Sous served pages from. Contract: pure; never throws.
 */
export function checkRequestSite(headers: SiteHeaders, kind: RequestKind, self: string, allowed: readonly string[]): SiteCheck {
  const site = headers.secFetchSite?.trim().toLowerCase()
  const origin = headers.origin
  const ours = (value: string) => value === self && allowed.includes(value)
  if (kind === 'websocket') {
    if (origin === undefined) return { ok: false, reason: 'A WebSocket needs an Origin header.' }
    if (!ours(origin)) return { ok: false, reason: `Origin ${origin} is not this page's origin.` }
    if (site !== undefined && site !== 'same-origin') return { ok: false, reason: `Sec-Fetch-Site: ${site} is not same-origin.` }
    return { ok: true }
  }
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { ok: false, reason: `Sous serves only its own page (Sec-Fetch-Site: ${site}); open the URL \`sous serve\` printed.` }
  }
  if (origin !== undefined && !ours(origin)) return { ok: false, reason: `Origin ${origin} is not this page's origin.` }
  return { ok: true }
}

/** The first value of a header that may arrive as a list. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
