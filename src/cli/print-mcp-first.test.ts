import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../test/mcp/fixture'
import { textReply, type RecordedRequest } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'

// `sous -p` and MCP servers in its first request, as Claude Code's `-p`: real stdio servers (the
// fixture, run by node), the real CLI and SDK against the scripted server.
const server = useModelServer()
const headless = useHeadless(server, { sousHome: (home) => join(home, '.sous'), inheritPath: true })

const toolNames = (request: RecordedRequest) => (request.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)

describe('sous -p waits for its MCP servers before the first request', () => {
  it('offers a .mcp.json server and a slow --mcp-config server (within MCP_TIMEOUT) in the first request', async () => {
    await writeFile(join(headless.project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }))
    const config = JSON.stringify({ mcpServers: { slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '1500', FIXTURE_NAME: 'slow' }) } })
    server.setScenario([textReply('Both are here.')])
    const { code, stdout, stderr } = await headless.sous(['--output-format', 'stream-json', '--mcp-config', config, 'One prompt.'], { env: { MCP_TIMEOUT: '10000' } })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    expect(server.requests).toHaveLength(1)
    expect(toolNames(server.requests[0]!)).toEqual(expect.arrayContaining(['mcp__fixture__echo', 'mcp__slow__echo']))
    // They were there from the start: no "has connected" news, no "still connecting" note.
    const sent = JSON.stringify(server.requests[0]!.body['messages'])
    expect(sent).not.toContain('has connected')
    expect(sent).not.toContain('still connecting')
    const init = JSON.parse(stdout.split('\n')[0]!) as { type: string; subtype: string; mcp_servers: Array<{ name: string; status: string }> }
    expect(init).toMatchObject({ type: 'system', subtype: 'init' })
    expect(init.mcp_servers).toEqual(expect.arrayContaining([{ name: 'fixture', status: 'connected' }, { name: 'slow', status: 'connected' }]))
  })

  it('reports a server slower than MCP_TIMEOUT and one that cannot start, and the run goes on without them', async () => {
    await writeFile(
      join(headless.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { fixture: fixtureEntry(), slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '20000' }), broken: fixtureEntry({ FIXTURE_EXIT_AT_START: '9' }) } }),
    )
    server.setScenario([textReply('Going on without them.')])
    const { code, stdout, stderr } = await headless.sous(['--output-format', 'stream-json', 'One prompt.'], { env: { MCP_TIMEOUT: '5000' } })
    expect(code).toBe(0)
    expect(stderr).toContain('sous: warning: MCP server "slow" failed to connect: did not finish starting within 5 s; the run goes on without its tools.\n')
    expect(stderr).toMatch(/sous: warning: MCP server "broken" failed to connect: the server process exited with code 9[^\n]*; the run goes on without its tools\.\n/)
    const names = toolNames(server.requests[0]!)
    expect(names).toContain('mcp__fixture__echo')
    expect(names.some((name) => name.startsWith('mcp__slow__') || name.startsWith('mcp__broken__'))).toBe(false)
    const init = JSON.parse(stdout.split('\n')[0]!) as { mcp_servers: Array<{ name: string; status: string }> }
    expect(init.mcp_servers).toEqual([
      { name: 'fixture', status: 'connected' },
      { name: 'slow', status: 'failed' },
      { name: 'broken', status: 'failed' },
    ])
    // The model is told which servers are missing.
    expect(JSON.stringify(server.requests[0]!.body['messages'])).toContain('MCP server \\"slow\\" is not available')
  })
})
