import { request } from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { requests, type RequestChannel } from '../../shared/ipc/contract'
import { createCore, type Core } from '../core'
import { MemoryKeyStore } from '../secrets/memory-key-store'
import { proof } from './auth'
import { startBrowserHost, WS_PATH, type BrowserHost } from './ws'

const MALFORMED: unknown[] = [42, 'text', [], true, { unexpected: 1 }]

let dir: string
let core: Core
let host: BrowserHost
const sockets: WebSocket[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-ws-'))
  const renderer = join(dir, 'renderer')
  await mkdir(join(renderer, 'assets'), { recursive: true })
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Sous</title>')
  await writeFile(join(renderer, 'assets', 'app.js'), 'console.log(1)')
  await writeFile(join(renderer, 'assets', 'x.wasm'), Buffer.from([0, 97, 115, 109]))
  await writeFile(join(dir, 'secret.txt'), 'TOP-SECRET')
  core = createCore({ sousHome: join(dir, 'home'), transport: 'browser', keyStore: new MemoryKeyStore({}) })
  host = await startBrowserHost({ core, rendererDir: renderer })
})

afterAll(async () => {
  for (const socket of sockets) socket.terminate()
  await host.close()
  await core.dispose()
  await rm(dir, { recursive: true, force: true })
})

/** A raw HTTP GET: no path normalization, any headers. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const pageValue = () => proof(host.token, 'page', host.origin)
const cookie = (): Record<string, string> => ({ Cookie: `sous_page_${host.port}=${pageValue()}` })
const socketKey = () => proof(host.token, 'socket', host.origin)

/**
 * Opens a WebSocket as the page does (the socket key as a subprotocol; `key: null` offers none);
 * resolves with it once open, or with the HTTP status that refused it.
 */
function connect(options: { key?: string | null; origin?: string; headers?: Record<string, string>; query?: string } = {}): Promise<WebSocket | number> {
  const protocols = options.key === null ? ['sous.v1'] : ['sous.v1', `sous-key.${options.key ?? socketKey()}`]
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WS_PATH}${options.query ?? ''}`, protocols, { headers: options.headers ?? {}, origin: options.origin ?? host.origin })
  sockets.push(ws)
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.once('error', reject)
  })
}

/** Sends raw text and waits for the reply with `id`. */
function call(ws: WebSocket, text: string, id: unknown): Promise<{ id: unknown; result: { ok: boolean; error?: { code: string } } }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const message = JSON.parse(data.toString()) as { id?: unknown; result: { ok: boolean; error?: { code: string } } }
      if (message.id === id) {
        ws.off('message', onMessage)
        resolve(message as { id: unknown; result: { ok: boolean; error?: { code: string } } })
      }
    }
    ws.on('message', onMessage)
    ws.send(text)
  })
}

describe('browser host over HTTP', () => {
  it('prints a loopback URL with a 64-hex-digit token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/)
  })

  it('refuses requests without the right token (401)', async () => {
    expect((await get('/')).status).toBe(401)
    expect((await get('/?token=wrong')).status).toBe(401)
    expect((await get('/', { Cookie: `sous_page_${host.port}=${'0'.repeat(64)}` })).status).toBe(401)
    // The token itself is no cookie value, nor is another origin's page value.
    expect((await get('/', { Cookie: `sous_page_${host.port}=${host.token}` })).status).toBe(401)
    expect((await get('/', { Cookie: `sous_page_${host.port}=${proof(host.token, 'page', `http://localhost:${host.port}`)}` })).status).toBe(401)
    expect((await get('/assets/app.js')).status).toBe(401)
  })

  it('trades the token in the URL for a derived HttpOnly SameSite=Strict cookie and the socket key in the fragment', async () => {
    const res = await get(`/?token=${host.token}&project=x`)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe(`/?project=x#sous-key=${socketKey()}`)
    expect(res.headers['cache-control']).toBe('no-store')
    const setCookie = String(res.headers['set-cookie'])
    expect(setCookie).toBe(`sous_page_${host.port}=${pageValue()}; HttpOnly; SameSite=Strict; Path=/`)
    expect(setCookie).not.toContain(host.token)
    expect(setCookie).not.toContain(socketKey())
    // Bound to the origin: the localhost spelling gets its own values.
    const local = await get(`/?token=${host.token}`, { Host: `localhost:${host.port}` })
    expect(String(local.headers['set-cookie'])).toContain(proof(host.token, 'page', `http://localhost:${host.port}`))
    expect(local.headers.location).toBe(`/#sous-key=${proof(host.token, 'socket', `http://localhost:${host.port}`)}`)
  })

  it('checks Origin and Sec-Fetch-Site on every request: only its own origin, or a navigation the user made', async () => {
    expect((await get('/', { ...cookie(), 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200)
    expect((await get(`/?token=${host.token}`, { 'Sec-Fetch-Site': 'none' })).status).toBe(303)
    for (const site of ['same-site', 'cross-site']) {
      expect((await get('/', { ...cookie(), 'Sec-Fetch-Site': site })).status, site).toBe(403)
      expect((await get(`/?token=${host.token}`, { 'Sec-Fetch-Site': site })).status, site).toBe(403)
    }
    expect((await get('/assets/app.js', { ...cookie(), Origin: host.origin })).status).toBe(200)
    expect((await get('/assets/app.js', { ...cookie(), Origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403)
    expect((await get('/assets/app.js', { ...cookie(), Origin: 'null' })).status).toBe(403)
  })

  it('serves the renderer with MIME types and a strict CSP', async () => {
    const page = await get('/', cookie())
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('<title>Sous</title>')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self';")
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/)
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`)
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect((await get('/assets/app.js', cookie())).headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect((await get('/assets/x.wasm', cookie())).headers['content-type']).toBe('application/wasm')
    expect((await get('/missing.js', cookie())).status).toBe(404)
  })

  it('refuses directory traversal', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/assets/%00']) {
      const res = await get(path, cookie())
      expect(res.status, path).toBe(404)
      expect(res.body).not.toContain('TOP-SECRET')
    }
  })

  it('refuses a foreign Host header (DNS rebinding) and non-GET methods', async () => {
    expect((await get('/', { ...cookie(), Host: `evil.example:${host.port}` })).status).toBe(403)
    // The localhost spelling is ours too, with the page value made for its origin.
    const local = `http://localhost:${host.port}`
    expect((await get('/', { Cookie: `sous_page_${host.port}=${proof(host.token, 'page', local)}`, Host: `localhost:${host.port}` })).status).toBe(200)
    expect((await get('/', { ...cookie(), Host: `localhost:${host.port}` })).status).toBe(401)
  })

  it('will not bind a non-loopback address without allowRemote', async () => {
    await expect(startBrowserHost({ core, rendererDir: dir, host: '0.0.0.0' })).rejects.toThrow(/--allow-remote/)
  })
})

describe('browser host over WebSocket', () => {
  it('refuses an upgrade without the socket key (401) — the page cookie is never enough — and from a foreign Origin (403)', async () => {
    expect(await connect({ key: null })).toBe(401)
    expect(await connect({ key: 'f'.repeat(64) })).toBe(401)
    expect(await connect({ key: null, headers: cookie() })).toBe(401)
    expect(await connect({ key: pageValue(), headers: cookie() })).toBe(401)
    expect(await connect({ key: null, headers: cookie(), query: `?token=${pageValue()}` })).toBe(401)
    // Another origin's key does not open this one.
    expect(await connect({ key: proof(host.token, 'socket', `http://localhost:${host.port}`) })).toBe(401)
    expect(await connect({ origin: 'https://evil.example' })).toBe(403)
    expect(await connect({ origin: `http://127.0.0.1:${host.port + 1}` })).toBe(403)
    expect(await connect({ origin: `http://localhost:${host.port}` })).toBe(403) // not the Host it connected to
    expect(await connect({ headers: { 'Sec-Fetch-Site': 'same-site' } })).toBe(403)
  })

  it('opens with the key, selects sous.v1 and never echoes the key', async () => {
    const ws = await connect({ headers: { 'Sec-Fetch-Site': 'same-origin' } })
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    expect(ws.protocol).toBe('sous.v1')
  })

  it('accepts the token as a query parameter too, and answers requests', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`, { origin: host.origin })
    sockets.push(ws)
    await new Promise((resolve) => ws.once('open', resolve))
    const reply = await call(ws, JSON.stringify({ id: 1, channel: 'app.info', payload: {} }), 1)
    expect(reply.result).toMatchObject({ ok: true, value: { transport: 'browser' } })
  })

  it('answers INVALID_INPUT to a malformed payload on every request channel', async () => {
    const ws = await connect()
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    let id = 100
    for (const channel of Object.keys(requests) as RequestChannel[]) {
      for (const payload of MALFORMED) {
        const reply = await call(ws, JSON.stringify({ id: ++id, channel, payload }), id)
        expect(reply.result.error?.code, `${channel} ${JSON.stringify(payload)}`).toBe('INVALID_INPUT')
      }
    }
  })

  it('survives malformed frames, answering INVALID_INPUT where an id is recoverable', async () => {
    const ws = await connect()
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    ws.send('not json at all')
    ws.send('[1,2,3]')
    ws.send(Buffer.from([0xff, 0xfe, 0x00]))
    expect((await call(ws, JSON.stringify({ id: 7 }), 7)).result.error?.code).toBe('INVALID_INPUT')
    expect((await call(ws, JSON.stringify({ id: 'x', channel: 5 }), 'x')).result.error?.code).toBe('INVALID_INPUT')
    expect((await call(ws, JSON.stringify({ id: 8, channel: 'nope.nothing' }), 8)).result.error?.code).toBe('UNKNOWN_CHANNEL')
    // Still alive and answering.
    expect((await call(ws, JSON.stringify({ id: 9, channel: 'app.info', payload: {} }), 9)).result.ok).toBe(true)
  })

  it('pushes EventHub events to connected clients', async () => {
    const ws = await connect()
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    const received = new Promise<unknown>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { event?: string }
        if (message.event === 'project.openRequested') resolve(message)
      })
    })
    core.events.emit('project.openRequested', { path: '/some/where' })
    expect(await received).toEqual({ event: 'project.openRequested', payload: { path: '/some/where' } })
  })

  it('sends a burst of one agent’s text as one delta, before the event that follows it', async () => {
    const ws = await connect()
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    const events: Array<{ type: string; text?: string }> = []
    const ended = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { event?: string; payload?: { type: string; text?: string } }
        if (message.event !== 'agent.event' || !message.payload) return
        events.push({ type: message.payload.type, ...(message.payload.text !== undefined && { text: message.payload.text }) })
        if (message.payload.type === 'turn_end') resolve()
      })
    })
    for (const text of ['Stre', 'amed ', 'text']) core.events.emit('agent.event', { sessionId: 's1', agentId: 'agent-1', parentToolUseId: 'toolu_1', type: 'text_delta', text })
    core.events.emit('agent.event', { sessionId: 's1', agentId: 'agent-1', parentToolUseId: 'toolu_1', type: 'turn_end', reason: 'completed' })
    await ended
    expect(events).toEqual([{ type: 'text_delta', text: 'Streamed text' }, { type: 'turn_end' }])
  })
})
