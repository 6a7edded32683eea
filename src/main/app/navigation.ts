import { isAllowedUrl } from '../host/sender-policy'

/**
 * Whether a navigation (`will-navigate`, `will-frame-navigate`, `will-redirect`) may proceed:
 * only within our own app (a reload of the app's page); anything else — a link, a script
 * setting `location`, a redirect — is refused. Parsed with `new URL`, never string prefixes.
 */
export function navigationAllowed(url: string, appOrigins: readonly string[]): boolean {
  return isAllowedUrl(url, appOrigins)
}

const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:'])

/**
 * Whether a URL the renderer asked to open in a new window may be handed to the OS browser
 * (`shell.openExternal`): web and mail links only — never `file:`, `javascript:`, `smb:` or
 * custom schemes that launch other programs.
 */
export function isSafeExternalUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (!EXTERNAL_SCHEMES.has(parsed.protocol)) return false
  if (parsed.protocol === 'mailto:') return true
  return parsed.hostname !== '' && !parsed.username && !parsed.password
}

/**
 * The permissions a page of ours may use: writing to the clipboard (copy from the terminal and
 * the editor). Everything else — camera, microphone, notifications, geolocation, HID, serial… —
 * is denied, and nothing is granted to any other origin.
 */
export function permissionAllowed(permission: string, requestingUrl: string | undefined, appOrigins: readonly string[]): boolean {
  return permission === 'clipboard-sanitized-write' && isAllowedUrl(requestingUrl, appOrigins)
}
