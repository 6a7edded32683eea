import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// The app's path (an interactive runtime, as the desktop builds it): a prompt sent while a server is
// still connecting tells the model so, through the real runtime, MCP client and SDK.
const server = useModelServer()
const slow = JSON.stringify({ mcpServers: { slowpoke: fixtureEntry({ FIXTURE_START_DELAY_MS: '4000' }) } })
const world = useAgentWorld(() => server.url, { mcpConfigs: [slow] })

describe('a prompt sent while MCP servers connect', () => {
  it('names the servers still connecting and WaitForMcpServers; once connected, the note is not repeated', async () => {
    server.setScenario([textReply('I will wait for it.'), textReply('Now it is here.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(sessionId, 'Use the slow server.')
    const first = JSON.stringify(server.requests[0]!.body['messages'])
    expect(first).toContain('The following MCP servers are still connecting — their tools (typically named mcp__<server>__*) are not yet available but will appear shortly: slowpoke.')
    expect(first).toContain('call WaitForMcpServers to wait for them')
    expect((server.requests[0]!.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)).toContain('WaitForMcpServers')

    await world.runtime.mcp.peek(world.project)!.waitFor(undefined, 20_000)
    await world.runtime.sessions.run(sessionId, 'And now?')
    const second = server.requests[1]!.body['messages'] as Array<{ role: string }>
    expect(JSON.stringify(second.at(-1))).not.toContain('still connecting')
    expect(server.failures).toEqual([])
  })
})
