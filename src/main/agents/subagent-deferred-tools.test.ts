import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, routeByPrompt, useAgentWorld } from '../../../test/support/agents'
import { FORK_TAG } from './fork.prompt'

// Subagents defer tools by the session's policy: the real runtime, a real stdio MCP server, the
// real SDK against the scripted server; what each request offered is read from what it recorded.
const server = useModelServer()
const config = JSON.stringify({ mcpServers: { fixture: fixtureEntry() } })
const world = useAgentWorld(() => server.url, { mcpConfigs: [config] })

type OfferedTool = { name: string; defer_loading?: boolean }
const toolsOf = (body: Record<string, unknown>) => body['tools'] as OfferedTool[]
/** A request's tools without the cache breakpoints, which move from request to request. */
const bareTools = (body: Record<string, unknown>): unknown => JSON.parse(JSON.stringify(body['tools'], (key, inner: unknown) => (key === 'cache_control' ? undefined : inner)))
const withToolSearch = () => world.restart({ env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: world.userHome, ENABLE_TOOL_SEARCH: 'true' } })

describe('a subagent with ENABLE_TOOL_SEARCH', () => {
  it('offers ToolSearch and sends the MCP tools with defer_loading, as the main agent does', async () => {
    await withToolSearch()
    server.setScenario(
      [
        routeByPrompt({
          'Ask a helper.': [toolUseReply('Agent', { description: 'Help', prompt: 'Use the fixture server.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Done.')],
          'Use the fixture server.': [textReply('Nothing to do.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.mcp.peek(world.project)!.waitFor(undefined, 20_000)
    const result = await world.runtime.sessions.run(sessionId, 'Ask a helper.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])

    const main = toolsOf(server.requests.find((request) => promptOf(request) === 'Ask a helper.')!.body)
    const sub = toolsOf(server.requests.find((request) => promptOf(request) === 'Use the fixture server.')!.body)
    for (const tools of [main, sub]) {
      const mcp = tools.filter((tool) => tool.name.startsWith('mcp__fixture__'))
      expect(mcp.length).toBeGreaterThan(0)
      expect(mcp.every((tool) => tool.defer_loading === true)).toBe(true)
      expect(tools.map((tool) => tool.name)).toContain('ToolSearch')
      // Built-ins stay loaded (deferBuiltinTools is off).
      expect(tools.find((tool) => tool.name === 'Read')?.defer_loading).toBeUndefined()
    }
  })

  it('a fork repeats the parent request’s tools byte for byte, ToolSearch and defer_loading included', async () => {
    await withToolSearch()
    server.setScenario(
      [
        routeByPrompt({
          'Fork a checker.': [toolUseReply('Agent', { description: 'Check', prompt: 'CHECK-IT: all fine?', subagent_type: 'fork' }, { id: 'toolu_fork' }), textReply('Reported.')],
          'CHECK-IT': [textReply('All fine.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.mcp.peek(world.project)!.waitFor(undefined, 20_000)
    expect((await world.runtime.sessions.run(sessionId, 'Fork a checker.')).reason).toBe('completed')
    expect(server.failures).toEqual([])
    const parent = server.requests[0]!
    const fork = server.requests.find((request) => JSON.stringify(request.body['messages']).includes(FORK_TAG))!
    expect(toolsOf(parent.body).some((tool) => tool.defer_loading === true)).toBe(true)
    expect(bareTools(fork.body)).toEqual(bareTools(parent.body))
  })
})
