import type { Sender } from './router'

/** The desktop renderer's origin: everything is served from the privileged `app://sous/` scheme. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'sous'
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Whether `url` belongs to one of `allowed` (URLs or origins). Compared on scheme and host
 * (with port) after parsing with `new URL` — never with `startsWith`, which `app://sous.evil/`
 * or `http://localhost:5173@evil.com/` would fool. Custom schemes have an opaque origin
 * (`"null"`), hence scheme + host rather than `.origin`.
 */
export function isAllowedUrl(url: string | undefined, allowed: readonly string[]): boolean {
  if (!url) return false
  const parsed = parse(url)
  if (!parsed || parsed.username || parsed.password) return false
  return allowed.some((entry) => {
    const base = parse(entry)
    return !!base && base.protocol === parsed.protocol && base.host === parsed.host && base.host !== ''
  })
}

/** Options for {@link createSenderPolicy}. */
export interface SenderPolicyOptions {
  transport: 'electron' | 'browser' | 'stdio'
  /** Electron: the renderer's URLs (the app protocol, plus the dev server in development). */
  appOrigins: readonly string[]
}

/**
 * The router's trusted-sender check. Electron: only frames whose URL is our app (a frame with no
 * URL, a navigated frame or a foreign iframe is refused). Browser host: only WebSocket senders (a remote host: only its pipe),
 * whose token and Origin the upgrade has already checked. In-process callers are trusted.
 */
export function createSenderPolicy(options: SenderPolicyOptions): (sender: Sender) => boolean {
  return (sender) => {
    switch (sender.transport) {
      case 'internal':
        return true
      case 'electron':
        return options.transport === 'electron' && isAllowedUrl(sender.frameUrl, options.appOrigins)
      case 'ws':
        return options.transport === 'browser'
      // A remote host (`sous host --stdio`): the pipe is the one the local Sous started over ssh.
      case 'stdio':
        return options.transport === 'stdio'
      default:
        return false
    }
  }
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}
