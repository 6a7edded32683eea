import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { SOUS_VERSION } from '../version'
import { connectRemoteHost } from './client'
import { REMOTE_PROTOCOL } from './frames'

/** A host end written by hand: what a misbehaving remote could send. */
function handHost() {
  const toClient = new PassThrough()
  const fromClient = new PassThrough()
  const lines: string[] = []
  fromClient.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)))
  return { toClient, fromClient, lines, write: (value: unknown) => toClient.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`) }
}

const hello = { t: 'hello', role: 'host', protocol: REMOTE_PROTOCOL, version: SOUS_VERSION, model: 'relay' }
const event = (sessionId: string) => ({ t: 'event', seq: 1, channel: 'agent.event', payload: { type: 'text_delta', sessionId, agentId: 'main', text: 'hi' } })

describe('connectRemoteHost', () => {
  it('drops events of sessions it does not own, and bad frames, and keeps the connection', async () => {
    const host = handHost()
    const problems: string[] = []
    const connecting = connectRemoteHost({ input: host.toClient, output: host.fromClient, version: SOUS_VERSION, onProblem: (message) => problems.push(message) })
    host.write(hello)
    const connected = await connecting
    if (!connected.ok) throw new Error(connected.message)
    const seen: unknown[] = []
    connected.client.subscribe((_channel, payload) => seen.push(payload))
    const creating = connected.client.invoke('session.create', { projectPath: '/srv/app' })
    await expect.poll(() => host.lines.length).toBe(2)
    expect(JSON.parse(host.lines[1]!)).toMatchObject({ t: 'req', channel: 'session.create', payload: { projectPath: '/srv/app' } })
    host.write({ t: 'res', id: JSON.parse(host.lines[1]!).id, result: { ok: true, value: { sessionId: 'mine' } } })
    expect(await creating).toEqual({ ok: true, value: { sessionId: 'mine' } })
    host.write(event('someone-else'))
    host.write('garbage')
    host.write({ t: 'event', seq: 2, channel: 'agent.event', payload: { type: 'no_such_event' } })
    host.write(event('mine'))
    await expect.poll(() => seen.length).toBe(1)
    expect(seen[0]).toMatchObject({ sessionId: 'mine', text: 'hi' })
    expect(problems.join('\n')).toContain('for session someone-else, which it does not own here; dropped')
    expect(problems.join('\n')).toContain('bad frame: The frame is not valid JSON.')
    expect(problems.join('\n')).toContain('agent.event event that does not match the contract')
    // An answer that fails the contract's output schema is not passed on as a value.
    const listing = connected.client.invoke('session.list', {})
    await expect.poll(() => host.lines.length).toBe(3)
    host.write({ t: 'res', id: JSON.parse(host.lines[2]!).id, result: { ok: true, value: 'not a list' } })
    expect(await listing).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    connected.client.close()
  })

  it('refuses a host of another version, saying which', async () => {
    const host = handHost()
    const connecting = connectRemoteHost({ input: host.toClient, output: host.fromClient, version: SOUS_VERSION })
    host.write({ ...hello, version: '0.0.1' })
    expect(await connecting).toEqual({ ok: false, message: `the remote Sous does not match: it is Sous 0.0.1, this is Sous ${SOUS_VERSION}` })
    expect(host.lines).toEqual([])
  })
})
