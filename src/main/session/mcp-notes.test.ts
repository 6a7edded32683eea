import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// A server slower than the first request: the request does not wait, the server's tools join the
// next one, and the model is told (a system reminder) — through the real runtime and model SDK.
const server = useModelServer()

const world = useAgentWorld(() => server.url, { answerer: 'unattended' })
const notices = (): string[] => world.events.flatMap((event) => (event.type === 'notice' ? [event.message] : []))

describe('MCP servers joining a running session', () => {
  it('never holds the first request, offers the tools once connected, and tells the model', async () => {
    const project = world.project
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '1500' }) } }))
    server.setScenario([textReply('First.'), textReply('Second.')])
    const { sessionId } = await world.runtime.sessions.create(project)
    await world.runtime.sessions.run(sessionId, 'first')
    const firstTools = (server.requests[0]!.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)
    // Had the request waited for the server, its tools would be here.
    expect(firstTools).not.toContain('mcp__slow__echo')
    expect(firstTools).toContain('WaitForMcpServers')
    await world.runtime.mcp.peek(project)!.waitFor(undefined, 20_000)
    await expect.poll(() => notices().some((message) => message.startsWith('MCP server "slow" has connected'))).toBe(true)

    await world.runtime.sessions.run(sessionId, 'second')
    const second = server.requests[1]!.body
    expect((second['tools'] as Array<{ name: string }>).map((tool) => tool.name)).toContain('mcp__slow__echo')
    expect(JSON.stringify(second['messages'])).toMatch(/<system-reminder>\\nMCP server \\"slow\\" has connected\. Its tools are now available: mcp__slow__echo/)
    expect(server.failures).toEqual([])
  })
})
