import { shell, type Session, type WebContents } from 'electron'
import { isSafeExternalUrl, navigationAllowed, permissionAllowed } from './navigation'

/**
 * Locks down a session: permissions denied by default (request AND check handlers, plus device
 * access), and the CSP header added to every response, whatever the page's own headers say.
 */
export function hardenSession(session: Session, options: { csp: string; appOrigins: readonly string[] }): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionAllowed(permission, details.requestingUrl, options.appOrigins))
  })
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed(permission, requestingOrigin, options.appOrigins),
  )
  session.setDevicePermissionHandler(() => false)
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[] | string> = {}
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value
    }
    headers['Content-Security-Policy'] = [options.csp]
    callback({ responseHeaders: headers })
  })
}

/**
 * Locks down every web contents (call from `app.on('web-contents-created')`): navigation away
 * from the app, redirects and `<webview>`s are refused; `window.open` is denied, web and mail
 * links going to the OS browser instead.
 */
export function hardenWebContents(contents: WebContents, appOrigins: readonly string[]): void {
  const guard = (event: { url: string; preventDefault(): void }): void => {
    if (!navigationAllowed(event.url, appOrigins)) event.preventDefault()
  }
  contents.on('will-navigate', guard)
  contents.on('will-frame-navigate', guard)
  contents.on('will-redirect', guard)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}
