/**
 * The browser host's socket key on the page (see `src/main/host/ws.ts`): the first load of
 * `sous serve`'s URL redirects to `/#sous-key=<hex>`; the key moves at once from the fragment to
 * this origin's localStorage (scoped to scheme, host and port, so a page of another port cannot
 * read it, and shared with this origin's other tabs as the cookie was) and the fragment leaves
 * the address bar and history. The WebSocket offers the key as a subprotocol, which the browser
 * sends to this origin only.
 */

/** The fragment parameter and the storage entry (the server's `SOCKET_KEY_FRAGMENT`). */
const FRAGMENT = 'sous-key'
const STORAGE = 'sous.socketKey'
/** The server's `SOCKET_PROTOCOL` and `SOCKET_KEY_PREFIX`. */
const PROTOCOL = 'sous.v1'
const KEY_PREFIX = 'sous-key.'

/** The key in a `#…` fragment, if it holds a well-formed one (64 hex digits). */
export function keyFromFragment(hash: string): string | undefined {
  const key = new URLSearchParams(hash.replace(/^#/, '')).get(FRAGMENT) ?? undefined
  return key !== undefined && /^[0-9a-f]{64}$/.test(key) ? key : undefined
}

/** The fragment without the key (`''` when nothing else was in it). */
export function fragmentWithoutKey(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  params.delete(FRAGMENT)
  const rest = params.toString()
  return rest ? `#${rest}` : ''
}

/**
 * Takes the key from the address bar into storage (and the address bar clean), or reads the one
 * stored before; then the subprotocols the WebSocket offers. Without a key the socket offers only
 * the protocol and the server refuses it: the page was not opened from the printed URL.
 */
export function socketProtocols(win: Pick<Window, 'location' | 'history' | 'localStorage'> = window): string[] {
  const fresh = keyFromFragment(win.location.hash)
  if (fresh) {
    try {
      win.localStorage.setItem(STORAGE, fresh)
    } catch {
      // Storage refused (a private mode quota): the key still serves this page's sockets below.
    }
    win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}${fragmentWithoutKey(win.location.hash)}`)
  }
  let key = fresh
  try {
    key ??= win.localStorage.getItem(STORAGE) ?? undefined
  } catch {
    // No storage: only a fresh key can be used.
  }
  return key ? [PROTOCOL, `${KEY_PREFIX}${key}`] : [PROTOCOL]
}

let pageProtocols: string[] | undefined

/**
 * {@link socketProtocols} of this page, worked out once: the app's start takes the key in a task
 * of its own before the api opens the socket (`app/start.tsx`). The first touch of localStorage
 * and the address bar's rewrite were most of the api chunk's evaluation (16 of 22 ms in a profile
 * at load average 9), and the socket's creation the rest. Once, not twice: the key leaves the
 * address bar on the first call, and where storage refused it a second call would find none.
 */
export function pageSocketProtocols(): string[] {
  return (pageProtocols ??= socketProtocols())
}
