import { request } from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { requests, type RequestChannel } from '../../shared/ipc/contract'
import { createCore, type Core } from '../core'
import { MemoryKeyStore } from '../secrets/memory-key-store'
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

const cookie = (): Record<string, string> => ({ Cookie: `sous_token_${host.port}=${host.token}` })

/** Opens a WebSocket; resolves with it once open, or with the HTTP status that refused it. */
function connect(options: { token?: string | null; origin?: string } = {}): Promise<WebSocket | number> {
  const headers: Record<string, string> = {}
  if (options.token !== null) headers.Cookie = `sous_token_${host.port}=${options.token ?? host.token}`
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WS_PATH}`, { headers, origin: options.origin ?? host.origin })
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
    expect((await get('/', { Cookie: `sous_token_${host.port}=${'0'.repeat(64)}` })).status).toBe(401)
    expect((await get('/assets/app.js')).status).toBe(401)
  })

  it('trades the token in the URL for an HttpOnly SameSite=Strict cookie', async () => {
    const res = await get(`/?token=${host.token}`)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/')
    expect(String(res.headers['set-cookie'])).toBe(`sous_token_${host.port}=${host.token}; HttpOnly; SameSite=Strict; Path=/`)
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
    expect((await get('/', { ...cookie(), Host: `localhost:${host.port}` })).status).toBe(200)
  })

  it('will not bind a non-loopback address without allowRemote', async () => {
    await expect(startBrowserHost({ core, rendererDir: dir, host: '0.0.0.0' })).rejects.toThrow(/--allow-remote/)
  })
})

describe('browser host over WebSocket', () => {
  it('refuses an upgrade without the token (401) and from a foreign Origin (403)', async () => {
    expect(await connect({ token: null })).toBe(401)
    expect(await connect({ token: 'f'.repeat(64) })).toBe(401)
    expect(await connect({ origin: 'https://evil.example' })).toBe(403)
    expect(await connect({ origin: `http://127.0.0.1:${host.port + 1}` })).toBe(403)
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
