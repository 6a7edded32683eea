import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { createWsClient, type ConnectionState, type SocketLike, type WsClient } from './ws-client'

/** A real loopback server speaking the wire shape; `reply` decides what each request gets. */
async function startServer(
  reply: (message: { id: number; channel: string; payload: unknown }, send: (data: unknown) => void) => void,
  port = 0,
): Promise<WebSocketServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  server.on('connection', (socket) => {
    socket.on('message', (raw) => reply(JSON.parse(String(raw)), (data) => socket.send(JSON.stringify(data))))
  })
  return server
}

function portOf(server: WebSocketServer): number {
  return (server.address() as { port: number }).port
}

async function stop(server: WebSocketServer): Promise<void> {
  for (const client of server.clients) client.terminate()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

function waitForState(client: WsClient, wanted: ConnectionState): Promise<void> {
  if (client.state === wanted) return Promise.resolve()
  return new Promise((resolve) => {
    const off = client.onState((state) => {
      if (state === wanted) {
        off()
        resolve()
      }
    })
  })
}

const connect = (url: string) => new WebSocket(url) as unknown as SocketLike
const servers: WebSocketServer[] = []
const clients: WsClient[] = []

function client(server: WebSocketServer): WsClient {
  const made = createWsClient({ url: `ws://127.0.0.1:${portOf(server)}/ws`, connect, initialDelayMs: 20, maxDelayMs: 100 })
  clients.push(made)
  return made
}

afterEach(async () => {
  for (const made of clients.splice(0)) made.close()
  await Promise.all(servers.splice(0).map(stop))
})

describe('createWsClient', () => {
  it('sends requests made while connecting and matches replies by id', async () => {
    const server = await startServer((message, send) =>
      send({ id: message.id, result: { ok: true, value: { echoed: message.channel, payload: message.payload } } }),
    )
    servers.push(server)
    const api = client(server)
    const [first, second] = await Promise.all([
      api.invoke('project.open', { path: '/tmp/a' }),
      api.invoke('pty.kill', { id: 'p1' }),
    ])
    expect(first).toEqual({ ok: true, value: { echoed: 'project.open', payload: { path: '/tmp/a' } } })
    expect(second).toEqual({ ok: true, value: { echoed: 'pty.kill', payload: { id: 'p1' } } })
  })

  it('delivers pushed events to the listeners of that channel only', async () => {
    const server = await startServer((message, send) => {
      send({ event: 'pty.data', payload: { id: 'p1', data: 'hi' } })
      send({ id: message.id, result: { ok: true, value: null } })
    })
    servers.push(server)
    const api = client(server)
    const data: unknown[] = []
    const exits: unknown[] = []
    api.on('pty.data', (payload) => data.push(payload))
    const off = api.on('pty.exit', (payload) => exits.push(payload))
    off()
    await api.invoke('app.info', {})
    expect(data).toEqual([{ id: 'p1', data: 'hi' }])
    expect(exits).toEqual([])
  })

  it('fails a pending request with a clear error when the connection drops, then reconnects', async () => {
    let answer = false
    const server = await startServer((message, send) => {
      if (answer) send({ id: message.id, result: { ok: true, value: 'back' } })
      else for (const socket of server.clients) socket.terminate()
    })
    servers.push(server)
    const api = client(server)
    const lost = await api.invoke('session.prompt', { sessionId: 's', text: 'hello' })
    expect(lost.ok).toBe(false)
    if (!lost.ok) {
      expect(lost.error.code).toBe('UNAVAILABLE')
      expect(lost.error.message).toContain('session.prompt')
    }
    answer = true
    await waitForState(api, 'open')
    expect(await api.invoke('app.info', {})).toEqual({ ok: true, value: 'back' })
  })

  it('turns a malformed reply into an INTERNAL error instead of passing it on', async () => {
    const server = await startServer((message, send) => send({ id: message.id, result: { value: 1 } }))
    servers.push(server)
    const result = await client(server).invoke('app.info', {})
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Sous sent a malformed reply to "app.info".' } })
  })

  it('after close(), fails pending and new requests and does not reconnect', async () => {
    const server = await startServer(() => undefined)
    servers.push(server)
    const api = client(server)
    await waitForState(api, 'open')
    const pending = api.invoke('app.info', {})
    api.close()
    expect((await pending).ok).toBe(false)
    const later = await api.invoke('app.info', {})
    expect(later.ok).toBe(false)
    expect(api.state).toBe('closed')
  })
})
