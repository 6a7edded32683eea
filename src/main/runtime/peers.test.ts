import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'
import { peerRequests } from '../../shared/ipc/peers'
import { agentsRequests } from '../../shared/ipc/agents'
import { agentsHandlers } from '../host/handlers/agents'
import { TeamMailboxes } from '../store/teams/mailbox'

// Two sessions of one runtime (one SOUS_HOME) through the real loop and the scripted server: what
// a session holds for its user waits in its status until the user releases it (a turn of its own
// with the framed message; the sender is told) or drops it (the model never reads it).
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

describe('messages between sessions, held for the user', () => {
  it('hold → the user releases one (a turn with it, the sender told) and drops another (never read)', async () => {
    const sessions = world.runtime.sessions
    const a = (await sessions.create(world.project)).sessionId
    const b = (await sessions.create(world.project)).sessionId
    const bStatus = await sessions.setPeerPolicy(b, 'hold')
    expect(bStatus).toMatchObject({ policy: 'hold', source: 'session', override: 'hold', held: [] })
    const to = `${bStatus.name} [${bStatus.ref}]`
    server.setScenario(
      [
        (request) => {
          const text = sent(request)
          const last = JSON.stringify((request.body['messages'] as unknown[]).at(-1))
          if (last.includes('<cross-session-message')) return textReply('B read the released message.')
          if (last.includes('[Cross-session delivery notice] ')) return textReply('Noted.')
          if (text.includes('Send the first.') && !text.includes('toolu_first')) return toolUseReply('SendMessage', { to, message: 'First: please release me.' }, { id: 'toolu_first' })
          if (text.includes('Send the second.') && !text.includes('toolu_second')) return toolUseReply('SendMessage', { to, message: 'Second: drop me.' }, { id: 'toolu_second' })
          return textReply('Sent.')
        },
      ],
      { loop: true },
    )
    await sessions.run(a, 'Send the first.')
    await sessions.run(a, 'Send the second.')
    await until(async () => (await sessions.peerStatus(b)).held.length === 2)
    const held = (await sessions.peerStatus(b)).held
    expect(held.map((message) => message.text)).toEqual(['First: please release me.', 'Second: drop me.'])
    expect(held[0]!.from).toMatch(/ \[[0-9a-f]{6}\]$/)
    expect(world.events).toContainEqual(expect.objectContaining({ type: 'peer_message', sessionId: b, status: 'held', text: 'First: please release me.' }))
    // Nothing reached B's model while held.
    expect(server.requests.some((request) => sent(request).includes('<cross-session-message'))).toBe(false)

    await sessions.settlePeerMessage(b, held[0]!.id, 'release')
    await sessions.settlePeerMessage(b, held[1]!.id, 'drop')
    await expect(sessions.settlePeerMessage(b, held[1]!.id, 'drop')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await until(() => server.requests.some((request) => sent(request).includes('<cross-session-message')))
    const bTurn = server.requests.find((request) => sent(request).includes('<cross-session-message'))!
    expect(sent(bTurn)).toContain('First: please release me.')
    expect(server.requests.some((request) => sent(request).includes('Second: drop me.') && sent(request).includes('<cross-session-message'))).toBe(false)
    // A hears of the hold, the release and the drop.
    await until(() => server.requests.some((request) => sent(request).includes('user dropped your message')))
    const aNotices = server.requests.map(sent).join('\n')
    expect(aNotices).toContain('is holding your message for its user to release or drop')
    expect(aNotices).toContain("'s user released the message it held")
    expect((await sessions.peerStatus(b)).held).toEqual([])
    // Back to the settings: accept by default.
    expect(await sessions.setPeerPolicy(b, undefined)).toMatchObject({ policy: 'accept', source: 'default' })
  }, 60_000)
})

describe('a team member\'s mailbox, read from disk', () => {
  it('agents.teamMailbox returns what the file holds, with each message\'s kind; names that are no file names are refused by the contract', async () => {
    const teamDir = join(world.userHome, '.claude', 'teams', 'alpha')
    mkdirSync(teamDir, { recursive: true })
    const mailboxes = new TeamMailboxes(teamDir)
    await mailboxes.send('alice', { from: 'team-lead', text: 'Start on the parser.', summary: 'parser' })
    await mailboxes.send('alice', { from: 'team-lead', text: JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@alice', from: 'team-lead', timestamp: new Date().toISOString() }) })
    const handlers = agentsHandlers({ sousHome: world.home, userHome: world.userHome, env: {} })
    const read = await handlers['agents.teamMailbox']({ team: 'alpha', member: 'alice' }, { senderId: 'test' } as never)
    expect(read.messages.map((message) => [message.from, message.kind, message.summary])).toEqual([
      ['team-lead', 'message', 'parser'],
      ['team-lead', 'shutdown_request', undefined],
    ])
    expect((await handlers['agents.teamMailbox']({ team: 'alpha', member: 'nobody' }, { senderId: 'test' } as never)).messages).toEqual([])
    expect(agentsRequests['agents.teamMailbox'].input.safeParse({ team: '..', member: 'alice' }).success).toBe(false)
    expect(agentsRequests['agents.teamMailbox'].input.safeParse({ team: 'alpha', member: '../../x' }).success).toBe(false)
    expect(peerRequests['session.setPeerPolicy'].input.safeParse({ sessionId: 's', policy: 'maybe' }).success).toBe(false)
  })
})
