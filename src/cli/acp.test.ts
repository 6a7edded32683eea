import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PROTOCOL_VERSION, type RequestPermissionResponse } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply } from '../../test/model-server'
import { chunkText, startAcp, useAcpWorld, type AcpRun } from '../../test/support/acp-client'
import { ROOT, sousCommand } from '../../test/support/remote-host'
import { SOUS_VERSION } from '../main/host/version'

const world = useAcpWorld()

const reject: RequestPermissionResponse = { outcome: { outcome: 'selected', optionId: 'reject' } }

async function opened(acp: AcpRun): Promise<string> {
  const init = await acp.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} })
  expect(init).toMatchObject({ protocolVersion: PROTOCOL_VERSION, agentInfo: { name: 'sous', version: SOUS_VERSION }, agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } }, authMethods: [] })
  const created = await acp.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] })
  expect(created.modes?.currentModeId).toBe('default')
  expect(created.modes?.availableModes.map((mode) => mode.id)).not.toContain('bypassPermissions')
  return created.sessionId
}

describe('sous acp (a real process, driven by the ACP client SDK)', () => {
  it('streams a reply as message chunks, and session/load replays the stored conversation', async () => {
    world.server = await startModelServer({ scenario: [{ ...textReply('Hello from Sous, over ACP.'), chunkSize: 4 }] })
    world.run = startAcp(world.env(), () => reject)
    const sessionId = await opened(world.run)
    const answer = await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say hello' }, { type: 'resource', resource: { uri: 'file:///tmp/notes.md', text: 'a note' } }] })
    expect(answer.stopReason).toBe('end_turn')
    const chunks = world.run.updates.filter((n) => n.update.sessionUpdate === 'agent_message_chunk')
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toBe('Hello from Sous, over ACP.')
    // The embedded resource reached the model as context with its path.
    expect(JSON.stringify(world.server.requests[0]?.body['messages'])).toContain('<context uri=\\"/tmp/notes.md\\">\\na note\\n</context>')
    expect(await world.run.close()).toBe(0)

    world.run = startAcp(world.env(), () => reject)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const loaded = await world.run.connection.agent.request('session/load', { sessionId, cwd: world.project, mcpServers: [] })
    expect(loaded?.modes?.currentModeId).toBe('default')
    expect(chunkText(world.run.updates, 'user_message_chunk')).toContain('say hello')
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toBe('Hello from Sous, over ACP.')
  }, 60_000)

  it('asks before an Edit with its diff: rejected leaves the file as it was, allowed once writes it', async () => {
    const file = join(world.project, 'a.txt')
    await writeFile(file, 'one\n')
    world.server = await startModelServer({
      // Read first: an Edit of a file the agent has not read is refused before it asks.
      scenario: [toolUseReply('Read', { file_path: file }), toolUseReply('Edit', { file_path: file, old_string: 'one', new_string: 'two' }), textReply('Left it.'), toolUseReply('Edit', { file_path: file, old_string: 'one', new_string: 'two' }), textReply('Edited.')],
    })
    let answerWith = 'reject'
    world.run = startAcp(world.env(), () => ({ outcome: { outcome: 'selected', optionId: answerWith } }))
    const sessionId = await opened(world.run)
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'edit it' }] })).stopReason).toBe('end_turn')
    expect(await readFile(file, 'utf8')).toBe('one\n')
    const asked = world.run.asked[0]
    expect(asked?.toolCall).toMatchObject({ kind: 'edit', locations: [{ path: file }], content: [{ type: 'diff', path: file, oldText: 'one\n', newText: 'two\n' }] })
    expect(asked?.options.map((option) => option.kind)).toEqual(expect.arrayContaining(['allow_once', 'reject_once']))
    const failed = world.run.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed')
    expect(failed).toBeDefined()

    answerWith = 'allow_once'
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'edit it now' }] })).stopReason).toBe('end_turn')
    expect(await readFile(file, 'utf8')).toBe('two\n')
    const done = world.run.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed')
    expect(done.at(-1)).toMatchObject({ content: expect.arrayContaining([{ type: 'diff', path: file, oldText: 'one\n', newText: 'two\n' }]) })
    const calls = world.run.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call')
    expect(calls.map((call) => call.kind)).toEqual(['read', 'edit', 'edit'])
    const read = world.run.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === calls[0]?.toolCallId && u.locations)
    expect(read).toMatchObject({ title: `Read ${file}`, locations: [{ path: file }], rawInput: { file_path: file } })
  }, 60_000)

  it('cancels a turn waiting for permission: the prompt answers cancelled and the cut call still gets its tool_result', async () => {
    const file = join(world.project, 'b.txt')
    world.server = await startModelServer({ scenario: [toolUseReply('Write', { file_path: file, content: 'lost\n' }, { id: 'toolu_cut' }), textReply('After the cancel.')] })
    let sessionId = ''
    world.run = startAcp(world.env(), async () => {
      await world.run?.connection.agent.notify('session/cancel', { sessionId })
      return { outcome: { outcome: 'cancelled' } }
    })
    sessionId = await opened(world.run)
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] })).stopReason).toBe('cancelled')
    expect(await readFile(file, 'utf8').catch(() => 'absent')).toBe('absent')
    // The next turn's request carries the cut call's result: every tool_use gets its tool_result.
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] })).stopReason).toBe('end_turn')
    const messages = JSON.stringify(world.server.requests.at(-1)?.body['messages'])
    expect(messages).toContain('"tool_use_id":"toolu_cut"')
  }, 60_000)

  it('cancels a running command: the prompt answers cancelled and the command gets its tool_result', async () => {
    world.server = await startModelServer({ scenario: [toolUseReply('Bash', { command: 'sleep 30' }, { id: 'toolu_sleep' }), textReply('Stopped, going on.')] })
    world.run = startAcp(world.env(), () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }))
    const sessionId = await opened(world.run)
    const answer = world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait a while' }] })
    const acp = world.run
    await expect.poll(() => acp.updates.some((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.toolCallId === 'toolu_sleep' && n.update.status === 'in_progress'), { timeout: 20_000 }).toBe(true)
    const started = Date.now()
    await world.run.connection.agent.notify('session/cancel', { sessionId })
    expect((await answer).stopReason).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] })).stopReason).toBe('end_turn')
    expect(JSON.stringify(world.server.requests.at(-1)?.body['messages'])).toContain('"tool_use_id":"toolu_sleep"')
  }, 60_000)

  it('answers a frame that does not parse with a parse error and keeps the connection', async () => {
    world.server = await startModelServer({ scenario: [textReply('Still here.')] })
    world.run = startAcp(world.env(), () => reject)
    const sessionId = await opened(world.run)
    world.run.child.stdin.write('{not json\n')
    await expect.poll(() => world.run?.lines.some((line) => line.includes('"code":-32700'))).toBe(true)
    const bad = await world.run.connection.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'x' }] }).catch((error: unknown) => error)
    expect(bad).toMatchObject({ code: -32002 })
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'are you there' }] })).stopReason).toBe('end_turn')
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toBe('Still here.')
  }, 60_000)

  it('answers a protocol version it cannot speak clearly, and a newer one with its own', async () => {
    world.run = startAcp(world.env(), () => reject)
    const refused = await world.run.connection.agent.request('initialize', { protocolVersion: 0 }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32022, data: { requested: 0, supported: [PROTOCOL_VERSION] } })
    expect((refused as Error).message).toContain(`the client asked for ACP 0; Sous ${SOUS_VERSION} speaks ACP ${PROTOCOL_VERSION}`)
    const newer = await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION + 4 })
    expect(newer.protocolVersion).toBe(PROTOCOL_VERSION)
  }, 60_000)

  it('is listed in sous --help and refuses options it does not know', () => {
    const [program, ...rest] = sousCommand()
    const sous = (args: string[]) => spawnSync(program!, [...rest, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.dir } })
    expect(sous(['--help']).stdout).toMatch(/sous acp +Be an Agent Client Protocol agent/)
    const bad = sous(['acp', '--frobnicate'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('sous acp: unknown option: --frobnicate')
  }, 60_000)
})
