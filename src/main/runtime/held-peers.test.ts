import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// Held cross-session messages outlive the session's process: two sessions of one SOUS_HOME through
// the real loop and the scripted server, the runtime disposed (every session closed) and built
// again, the sessions resumed. What was held is listed again (a `held` event for the attention
// inbox, the status); a release after the restart reaches B's model and A is told; a drop is
// forgotten for good.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const sent = (request: RecordedRequest): string => JSON.stringify(request.body['messages'])

async function until(test: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await test())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('held cross-session messages across a restart', () => {
  it('are listed again after the session is resumed, released into it on the user\'s word, and dropped only on Drop', async () => {
    let to = ''
    server.setScenario(
      [
        (request) => {
          const text = sent(request)
          const last = JSON.stringify((request.body['messages'] as unknown[]).at(-1))
          if (last.includes('<cross-session-message')) return textReply('B read the released message.')
          if (last.includes('[Cross-session delivery notice] ')) return textReply('Noted.')
          if (text.includes('Send the first.') && !text.includes('toolu_first')) return toolUseReply('SendMessage', { to, message: 'First: release me after the restart.' }, { id: 'toolu_first' })
          if (text.includes('Send the second.') && !text.includes('toolu_second')) return toolUseReply('SendMessage', { to, message: 'Second: drop me.' }, { id: 'toolu_second' })
          return textReply('Done.')
        },
      ],
      { loop: true },
    )
    let sessions = world.runtime.sessions
    const a = (await sessions.create(world.project)).sessionId
    const b = (await sessions.create(world.project)).sessionId
    const status = await sessions.setPeerPolicy(b, 'hold')
    to = `${status.name} [${status.ref}]`
    await sessions.run(b, 'Hello B.')
    await sessions.run(a, 'Send the first.')
    await sessions.run(a, 'Send the second.')
    await until(async () => (await sessions.peerStatus(b)).held.length === 2)
    const file = join(world.home, 'peers', 'held', `${b}.json`)
    await until(() => existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length === 2)

    // Closed: every session of the runtime; a new runtime over the same SOUS_HOME.
    await world.restart()
    sessions = world.runtime.sessions
    const before = world.events.length
    await sessions.resume(b)
    await sessions.setPeerPolicy(b, 'hold')
    await until(async () => (await sessions.peerStatus(b)).held.length === 2)
    const held = (await sessions.peerStatus(b)).held
    expect(held.map((message) => message.text)).toEqual(['First: release me after the restart.', 'Second: drop me.'])
    // The attention inbox hears of them again.
    expect(world.events.slice(before).filter((event) => event.type === 'peer_message' && event.sessionId === b && event.status === 'held')).toHaveLength(2)
    // Nothing reached B's model.
    expect(server.requests.some((request) => sent(request).includes('<cross-session-message'))).toBe(false)

    await sessions.resume(a)
    await sessions.settlePeerMessage(b, held[0]!.id, 'release')
    await sessions.settlePeerMessage(b, held[1]!.id, 'drop')
    await until(() => server.requests.some((request) => sent(request).includes('<cross-session-message') && sent(request).includes('First: release me after the restart.')))
    // A (resumed too) hears of the release and of the drop.
    await until(() => server.requests.some((request) => sent(request).includes('user dropped your message')))
    expect(server.requests.map(sent).join('\n')).toContain("'s user released the message it held")
    await until(() => (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length === 0)

    // Another restart: nothing comes back.
    await world.restart()
    sessions = world.runtime.sessions
    await sessions.resume(b)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await sessions.peerStatus(b)).held).toEqual([])
    expect(server.requests.some((request) => sent(request).includes('Second: drop me.') && sent(request).includes('<cross-session-message'))).toBe(false)
  }, 90_000)
})
