import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// The per-session toggle for messages from other sessions outlives the host, as the held messages
// do: the runtime disposed (every session closed) and built again over the same SOUS_HOME, the
// session resumed, and its choice is in force before anyone sets it again, through the real loop.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const sent = (request: RecordedRequest): string => JSON.stringify(request.body['messages'])

describe('the per-session peer toggle across a restart', () => {
  it('is in force again when the session is resumed, and "as the settings say" forgets it for good', async () => {
    let sessions = world.runtime.sessions
    const b = (await sessions.create(world.project)).sessionId
    const status = await sessions.setPeerPolicy(b, 'refuse')
    const to = `${status.name} [${status.ref}]`
    // A session that said nothing leaves no transcript to resume.
    server.setScenario([textReply('Hi.')])
    await sessions.run(b, 'Hello B.')

    await world.restart()
    sessions = world.runtime.sessions
    await sessions.resume(b)
    expect(await sessions.peerStatus(b)).toMatchObject({ policy: 'refuse', source: 'session', override: 'refuse' })
    // And it acts on it: A's message is refused, never reaching B.
    const a = (await sessions.create(world.project)).sessionId
    server.setScenario(
      [
        (request) => (sent(request).includes('toolu_send') ? textReply('Sent or not.') : toolUseReply('SendMessage', { to, message: 'Please read me.' }, { id: 'toolu_send' })),
      ],
      { loop: true },
    )
    await sessions.run(a, 'Send it.')
    const result = server.requests.map(sent).find((text) => text.includes('"tool_use_id":"toolu_send"'))
    expect(result).toMatch(/refus/i)

    await sessions.setPeerPolicy(b, undefined)
    await world.restart()
    sessions = world.runtime.sessions
    await sessions.resume(b)
    expect(await sessions.peerStatus(b)).toMatchObject({ policy: 'accept', source: 'default' })
    expect((await sessions.peerStatus(b)).override).toBeUndefined()
  }, 60_000)

  it('a damaged stored choice is said and the settings decide; deleting the session removes it', async () => {
    let sessions = world.runtime.sessions
    const b = (await sessions.create(world.project)).sessionId
    await sessions.setPeerPolicy(b, 'hold')
    server.setScenario([textReply('Hi.')])
    await sessions.run(b, 'Hello B.')
    await world.restart()
    const file = join(world.home, 'peers', 'policy', `${b}.json`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ policy: 'hold' })
    writeFileSync(file, '{"policy": "sometimes"}')
    sessions = world.runtime.sessions
    await sessions.resume(b)
    expect(await sessions.peerStatus(b)).toMatchObject({ policy: 'accept', source: 'default' })
    expect(world.events.some((event) => event.type === 'notice' && event.sessionId === b && event.message.includes(file))).toBe(true)

    await sessions.setPeerPolicy(b, 'hold')
    await world.runtime.sessions.close(b)
    expect(existsSync(file)).toBe(true)
    await sessions.delete(b)
    expect(existsSync(file)).toBe(false)
  }, 60_000)
})
