import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PROTOCOL_VERSION, type McpServer } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { FIXTURE_SERVER } from '../../test/mcp/fixture'
import { startModelServer, textReply, thinkingReply, toolUseReply } from '../../test/model-server'
import { chunkText, startAcp, useAcpWorld } from '../../test/support/acp-client'

const world = useAcpWorld()

const never = () => ({ outcome: { outcome: 'cancelled' as const } })

describe('sous acp sessions', () => {
  it('streams thinking as thought chunks and sends an image with the prompt', async () => {
    world.server = await startModelServer({ scenario: [{ ...thinkingReply('Pondering the picture.', 'A red dot.'), chunkSize: 5 }] })
    world.run = startAcp(world.env(), never)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const { sessionId } = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] })
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
    const answer = await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what is this' }, { type: 'image', mimeType: 'image/png', data: png }] })
    expect(answer.stopReason).toBe('end_turn')
    expect(chunkText(world.run.updates, 'agent_thought_chunk')).toBe('Pondering the picture.')
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toBe('A red dot.')
    expect(JSON.stringify(world.server.requests[0]?.body['messages'])).toContain(`"data":"${png}"`)
  }, 60_000)

  it('lists the slash commands the user can type, and a typed one is expanded', async () => {
    await mkdir(join(world.dir, '.claude', 'commands'), { recursive: true })
    await writeFile(join(world.dir, '.claude', 'commands', 'greet.md'), '---\ndescription: Say hello to someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS warmly.\n')
    world.server = await startModelServer({ scenario: [textReply('Hello, Ada!')] })
    world.run = startAcp(world.env(), never)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const { sessionId } = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] })
    const acp = world.run
    await expect.poll(() => acp.updates.find((n) => n.update.sessionUpdate === 'available_commands_update')?.update).toMatchObject({ availableCommands: expect.arrayContaining([{ name: 'greet', description: 'Say hello to someone', input: { hint: '<name>' } }]) })
    await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/greet Ada' }] })
    expect(JSON.stringify(world.server.requests[0]?.body['messages'])).toContain('Say hello to Ada warmly.')
  }, 60_000)

  it('sends the task list as a plan, switches modes it offers and refuses one it does not', async () => {
    world.server = await startModelServer({ scenario: [toolUseReply('TaskCreate', { subject: 'Write the tests', description: 'Cover the adapter' }), textReply('Planned.')] })
    world.run = startAcp(world.env(), never)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const { sessionId, modes } = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] })
    expect(modes?.availableModes.map((mode) => mode.id)).toEqual(['default', 'acceptEdits', 'plan', 'auto', 'dontAsk'])
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan it' }] })).stopReason).toBe('end_turn')
    const plan = world.run.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'plan')
    expect(plan).toMatchObject({ entries: [{ content: 'Write the tests', status: 'pending', priority: 'medium' }] })
    expect(world.run.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({ kind: 'think', title: 'TaskCreate' })
    await world.run.connection.agent.request('session/set_mode', { sessionId, modeId: 'acceptEdits' })
    const refused = await world.run.connection.agent.request('session/set_mode', { sessionId, modeId: 'bypassPermissions' }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32602 })
    expect((refused as Error).message).toContain('Sous offers no mode "bypassPermissions"')
  }, 60_000)

  it("starts the client's MCP servers for the session and offers their tools to the model", async () => {
    world.server = await startModelServer({ scenario: [textReply('I see the tools.')] })
    world.run = startAcp(world.env(), never)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const mcpServers: McpServer[] = [{ name: 'editor', command: process.execPath, args: [FIXTURE_SERVER], env: [{ name: 'FIXTURE_NAME', value: 'editor' }] }]
    const { sessionId } = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers })
    expect((await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which tools' }] })).stopReason).toBe('end_turn')
    const offered = JSON.stringify(world.server.requests[0]?.body['tools'] ?? []) + JSON.stringify(world.server.requests[0]?.body['system'] ?? '')
    expect(offered).toContain('mcp__editor__echo')
  }, 60_000)

  it('keeps the key with Sous: without one it offers no way to hand one over and refuses sessions clearly', async () => {
    world.run = startAcp({ HOME: world.dir, SOUS_HOME: join(world.dir, 'sous-home') }, never)
    const init = await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    expect(init.authMethods).toEqual([expect.objectContaining({ id: 'sous-environment' })])
    const refused = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32000 })
    expect((refused as Error).message).toContain('ANTHROPIC_API_KEY')
    expect(await world.run.connection.agent.request('authenticate', { methodId: 'sous-environment' }).catch((error: unknown) => error)).toMatchObject({ code: -32000 })
  }, 60_000)

  it('tells the user once that an untrusted folder’s own hooks are ignored, and does not run them', async () => {
    const marker = join(world.dir, 'hook-ran')
    await mkdir(join(world.project, '.claude'), { recursive: true })
    await writeFile(join(world.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] } }))
    world.server = await startModelServer({ scenario: [textReply('Hi.')] })
    world.run = startAcp(world.env(), never)
    await world.run.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION })
    const { sessionId } = await world.run.connection.agent.request('session/new', { cwd: world.project, mcpServers: [] })
    await world.run.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toContain("this folder's own configuration is not trusted yet")
    expect(chunkText(world.run.updates, 'agent_message_chunk')).toContain('Hi.')
    await expect(import('node:fs/promises').then((fs) => fs.stat(marker))).rejects.toThrow()
  }, 60_000)
})
