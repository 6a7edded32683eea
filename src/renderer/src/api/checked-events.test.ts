import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import type { SousApi } from '../../../shared/ipc/api'
import { withCheckedEvents, type MalformedEvent } from './checked-events'
import { createEventProblemLog } from './event-problems'
import { createWsClient, type SocketLike, type WsClient } from './ws-client'

/**
 * The renderer's event boundary over the real browser transport: a loopback WebSocket server
 * pushes events (good and malformed) exactly as `sous serve` does, then answers a request so the
 * test knows every push before it has arrived.
 */

const servers: WebSocketServer[] = []
const clients: WsClient[] = []

afterEach(async () => {
  for (const made of clients.splice(0)) made.close()
  for (const server of servers.splice(0)) {
    for (const socket of server.clients) socket.terminate()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

/** A server that pushes `pushes` as `{event, payload}` on every request, then replies. */
async function connectPushing(pushes: ReadonlyArray<{ event: string; payload: unknown }>): Promise<WsClient> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  servers.push(server)
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  server.on('connection', (socket) => {
    socket.on('message', (raw) => {
      const { id } = JSON.parse(String(raw)) as { id: number }
      for (const push of pushes) socket.send(JSON.stringify(push))
      socket.send(JSON.stringify({ id, result: { ok: true, value: { version: 't', platform: 'linux', transport: 'browser' } } }))
    })
  })
  const { port } = server.address() as { port: number }
  const client = createWsClient({ url: `ws://127.0.0.1:${port}/ws`, connect: (url) => new WebSocket(url) as unknown as SocketLike })
  clients.push(client)
  return client
}

const base = { sessionId: 's1', agentId: 'main' }
const diffPreview = { kind: 'diff', filePath: '/p/a.ts', before: 'a\n', after: 'b\n' }
const approval = {
  id: 'a1',
  sessionId: 's1',
  toolUseId: 't1',
  toolName: 'Edit',
  input: {},
  preview: diffPreview,
  explanation: { kind: 'default', text: 'edits ask' },
  suggestions: [],
}

async function deliver(pushes: ReadonlyArray<{ event: string; payload: unknown }>, subscribe: (api: SousApi) => void) {
  const problems: MalformedEvent[] = []
  const api = withCheckedEvents(await connectPushing(pushes), (problem) => problems.push(problem))
  subscribe(api)
  // The reply comes after every push on the same socket, so all of them have been handled.
  expect(await api.invoke('app.info', {})).toMatchObject({ ok: true })
  return problems
}

describe('withCheckedEvents', () => {
  it('passes events that match the contract and drops, and reports, those that do not', async () => {
    const received: unknown[] = []
    const problems = await deliver(
      [
        { event: 'agent.event', payload: { ...base, type: 'text_delta', text: 'hello' } },
        { event: 'agent.event', payload: { ...base, type: 'text_delta' } },
        { event: 'agent.event', payload: { ...base, type: 'no_such_event' } },
        { event: 'agent.event', payload: null },
        { event: 'agent.event', payload: 'turn_end' },
        { event: 'agent.event', payload: { ...base, type: 'turn_end', reason: 'completed' } },
      ],
      (api) => api.on('agent.event', (event) => received.push(event)),
    )
    expect(received).toEqual([
      { ...base, type: 'text_delta', text: 'hello' },
      { ...base, type: 'turn_end', reason: 'completed' },
    ])
    expect(problems.map((problem) => problem.channel)).toEqual(['agent.event', 'agent.event', 'agent.event', 'agent.event'])
    expect(problems[0]?.issues).toMatch(/^text: /)
    expect(problems[1]?.issues).toMatch(/^type: /)
  })

  it('drops an approval whose preview does not match (it is never rendered) and keeps a good one', async () => {
    const requested: unknown[] = []
    const problems = await deliver(
      [
        { event: 'approval.requested', payload: { ...approval, id: 'bad', preview: { kind: 'diff', filePath: '/p/a.ts', before: 'a\n' } } },
        { event: 'approval.requested', payload: { ...approval, id: 'worse', preview: { kind: 'script', code: '<img onerror=alert(1)>' } } },
        { event: 'approval.requested', payload: approval },
      ],
      (api) => api.on('approval.requested', (request) => requested.push(request.id)),
    )
    expect(requested).toEqual(['a1'])
    expect(problems).toHaveLength(2)
    expect(problems[0]).toEqual({ channel: 'approval.requested', issues: expect.stringMatching(/^preview\.after: /) })
  })

  it('parses each event once for all its listeners, and strips what the contract does not name', async () => {
    const first: unknown[] = []
    const second: unknown[] = []
    const problems = await deliver(
      [
        { event: 'pty.data', payload: { id: 'p1', data: 'ok', injected: '<script>' } },
        { event: 'pty.data', payload: { id: 'p1', data: 42 } },
      ],
      (api) => {
        api.on('pty.data', (payload) => first.push(payload))
        api.on('pty.data', (payload) => second.push(payload))
      },
    )
    expect(first).toEqual([{ id: 'p1', data: 'ok' }])
    expect(second).toEqual(first)
    expect(first[0]).toBe(second[0])
    expect(problems).toEqual([{ channel: 'pty.data', issues: expect.stringMatching(/^data: /) }])
  })

  it('unsubscribes through the transport', async () => {
    const received: unknown[] = []
    await deliver([{ event: 'pty.exit', payload: { id: 'p1', exitCode: 0 } }], (api) => api.on('pty.exit', (payload) => received.push(payload))())
    expect(received).toEqual([])
  })
})

describe('createEventProblemLog', () => {
  it('counts problems by channel, logs each, tells subscribers, and clears', () => {
    const logged: string[] = []
    const log = createEventProblemLog((message) => logged.push(message))
    let notified = 0
    const stop = log.subscribe(() => notified++)
    log.report({ channel: 'agent.event', issues: 'text: expected string' })
    log.report({ channel: 'agent.event', issues: 'type: invalid' })
    log.report({ channel: 'pty.exit', issues: 'exitCode: expected number' })
    expect(log.snapshot()).toEqual({ count: 3, channels: ['agent.event', 'pty.exit'], last: { channel: 'pty.exit', issues: 'exitCode: expected number' } })
    expect(logged[0]).toContain('"agent.event"')
    expect(logged[0]).toContain('text: expected string')
    log.clear()
    expect(log.snapshot().count).toBe(0)
    expect(notified).toBe(4)
    stop()
    log.report({ channel: 'pty.data', issues: 'x' })
    expect(notified).toBe(4)
  })
})
