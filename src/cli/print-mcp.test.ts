import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../test/mcp/fixture'
import { startHttpMcpServer } from '../../test/mcp/http-server'
import { textReply, toolUseReply, type RecordedRequest, type Step } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// `sous -p` with real MCP servers: the stdio fixture (node), an in-process Streamable HTTP / SSE
// server, and @modelcontextprotocol/server-everything from the npm registry. The model is the
// scripted server behind the real SDK.
const server = useModelServer()

const headless = useHeadless(server, { sousHome: (home) => join(home, '.sous'), inheritPath: true })
const sous = (args: string[], env: Record<string, string> = {}) => headless.sous(args, { env })

async function mcpJson(servers: Record<string, unknown>): Promise<void> {
  await writeFile(join(headless.project, '.mcp.json'), JSON.stringify({ mcpServers: servers }))
}

/** The tool_result blocks the request at `index` carries (the answer to the previous reply). */
function results(index: number): ToolResultBlock[] {
  const messages = server.requests[index]!.body['messages'] as Message[]
  return messages.at(-1)!.content as ToolResultBlock[]
}

const resultText = (block: ToolResultBlock) => (typeof block.content === 'string' ? block.content : block.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
const toolNames = (request: RecordedRequest) => (request.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)

/** First reply: wait for the MCP servers (the first request never waits for them). */
const waitForServers = toolUseReply('WaitForMcpServers', {}, { id: 'toolu_wait' })

/** A step that checks the request offers `tool`, then calls it. */
function call(tool: string, input: unknown, id: string): Step {
  return (request) => {
    if (!toolNames(request).includes(tool)) throw new Error(`${tool} is not offered: ${toolNames(request).join(', ')}`)
    return toolUseReply(tool, input, { id })
  }
}

describe('sous -p with MCP servers', () => {
  it('starts a project stdio server in the background and uses its tools under the permission rules', async () => {
    await mcpJson({ fixture: fixtureEntry() })
    server.setScenario([waitForServers, call('mcp__fixture__echo', { message: 'hi' }, 'toolu_echo'), call('mcp__fixture__add', { a: 1, b: 2 }, 'toolu_add'), textReply('Done.')])
    const { code, stdout } = await sous(['--output-format', 'json', '--allowedTools', 'mcp__fixture__echo', 'Use the fixture'])
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    expect(resultText(results(1)[0]!)).toMatch(/fixture: connected, \d+ tools/)
    expect(results(2)[0]).toMatchObject({ tool_use_id: 'toolu_echo', content: 'echo: hi' })
    // Not allowed by a rule: MCP tools ask, and headless turns the ask into a denial.
    expect(results(3)[0]).toMatchObject({ tool_use_id: 'toolu_add', is_error: true })
    const result = JSON.parse(stdout) as { permission_denials: Array<{ tool_name: string }> }
    expect(result.permission_denials.map((denial) => denial.tool_name)).toEqual(['mcp__fixture__add'])
    // The schema sent is the server's own; the description is the server's too.
    const echo = (server.requests[1]!.body['tools'] as Array<{ name: string; description: string; input_schema: Record<string, unknown> }>).find((tool) => tool.name === 'mcp__fixture__echo')!
    expect(echo.description).toBe('Echoes the message back.')
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] })
  })

  it('reports a crash as a tool error, keeps the rest of the run going, and fails later calls clearly', async () => {
    await mcpJson({ fixture: fixtureEntry() })
    server.setScenario([
      waitForServers,
      call('mcp__fixture__crash', {}, 'toolu_crash'),
      call('mcp__fixture__echo', { message: 'still there?' }, 'toolu_after'),
      toolUseReply('Read', { file_path: join(headless.project, '.mcp.json') }, { id: 'toolu_read' }),
      textReply('The server crashed.'),
    ])
    const { code, stdout } = await sous(['--allowedTools', 'mcp__fixture', '--verbose', 'Crash it'])
    expect(code).toBe(0)
    expect(stdout).toBe('The server crashed.\n')
    expect(results(2)[0]).toMatchObject({ is_error: true })
    expect(resultText(results(2)[0]!)).toMatch(/MCP server "fixture" stopped while calling crash: the server process exited with code 3/)
    expect(resultText(results(3)[0]!)).toMatch(/MCP server "fixture" is not connected \(the server process exited with code 3.*\)\. Its tools cannot be used until the server is restarted/)
    // The crashed server's tools stay offered, so the tool list (and the cached prefix) does not move.
    expect(toolNames(server.requests[3]!)).toContain('mcp__fixture__echo')
    expect(results(4)[0]).toMatchObject({ tool_use_id: 'toolu_read' })
    expect(results(4)[0]!.is_error).toBeUndefined()
  })

  it('runs hooks on MCP tools and puts a large result through the result budget', async () => {
    await mcpJson({ fixture: fixtureEntry() })
    const log = join(headless.project, 'hooks.log')
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(
      join(headless.project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'mcp__fixture__add', hooks: [{ type: 'command', command: 'echo "no adding today" >&2; exit 2' }] }],
          PostToolUse: [{ matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: `cat | grep -o '"tool_name":"[a-z_]*"' >> ${log}` }] }],
        },
      }),
    )
    server.setScenario([waitForServers, call('mcp__fixture__add', { a: 1, b: 1 }, 'toolu_add'), call('mcp__fixture__big', { chars: 60_000 }, 'toolu_big'), textReply('Done.')])
    const { code } = await sous(['--allowedTools', 'mcp__fixture', 'Go'])
    expect(code).toBe(0)
    expect(results(2)[0]).toMatchObject({ is_error: true })
    expect(resultText(results(2)[0]!)).toContain('no adding today')
    const big = resultText(results(3)[0]!)
    expect(big).toMatch(/^<persisted-output>\nOutput too large \(60,000 characters\)\. Full output saved to: .*tool-results/)
    expect(await readFile(log, 'utf8')).toBe('"tool_name":"mcp__fixture__big"\n')
  })

  it('cancels a hung call at the server timeout with a clear error', async () => {
    await mcpJson({ fixture: fixtureEntry({}, { timeout: 1000 }) })
    server.setScenario([waitForServers, call('mcp__fixture__hang', {}, 'toolu_hang'), call('mcp__fixture__echo', { message: 'ok' }, 'toolu_ok'), textReply('Done.')])
    const { code } = await sous(['--allowedTools', 'mcp__fixture', 'Hang'])
    expect(code).toBe(0)
    expect(resultText(results(2)[0]!)).toMatch(/MCP server "fixture" did not answer within 1 s \(calling hang\); the call was cancelled/)
    expect(results(3)[0]).toMatchObject({ content: 'echo: ok' })
  })

  it('connects Streamable HTTP and legacy SSE servers from --mcp-config, with headers expanded from the environment', async () => {
    const http = await startHttpMcpServer()
    try {
      await mcpJson({ fixture: fixtureEntry() })
      const config = JSON.stringify({
        mcpServers: {
          web: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } },
          legacy: { type: 'sse', url: '${LEGACY_URL:-none}' },
        },
      })
      server.setScenario([
        waitForServers,
        (request) => {
          const names = toolNames(request)
          // --strict-mcp-config: the project's .mcp.json is ignored.
          if (names.some((name) => name.startsWith('mcp__fixture__'))) throw new Error('the .mcp.json server was started')
          return toolUseReply('mcp__web__shout', { text: 'loud' }, { id: 'toolu_web' })
        },
        call('mcp__legacy__whoami', {}, 'toolu_sse'),
        textReply('Both answered.'),
      ])
      const { code } = await sous(['--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__web mcp__legacy', 'Go'], { WEB_TOKEN: 'abc', LEGACY_URL: http.sseUrl })
      expect(code).toBe(0)
      expect(server.failures).toEqual([])
      expect(results(2)[0]).toMatchObject({ content: 'LOUD' })
      expect(results(3)[0]).toMatchObject({ content: 'sse' })
      expect(http.authorizations).toContain('Bearer abc')
    } finally {
      await http.close()
    }
  })

  it('lists and reads resources, and reports a server that could not start without failing the run', async () => {
    await mcpJson({ fixture: fixtureEntry(), broken: fixtureEntry({ FIXTURE_EXIT_AT_START: '9' }) })
    server.setScenario([
      waitForServers,
      toolUseReply('ListMcpResourcesTool', {}, { id: 'toolu_list' }),
      toolUseReply('ReadMcpResourceTool', { server: 'fixture', uri: 'fixture://readme' }, { id: 'toolu_read' }),
      toolUseReply('ReadMcpResourceTool', { server: 'broken', uri: 'x://y' }, { id: 'toolu_broken' }),
      textReply('Read it.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'sous-events', 'Resources'])
    expect(code).toBe(0)
    expect(resultText(results(1)[0]!)).toMatch(/broken: failed \(the server process exited with code 9 before it finished starting: fixture: refusing to start\)/)
    expect(JSON.parse(resultText(results(2)[0]!))).toEqual([{ uri: 'fixture://readme', name: 'readme', description: 'The fixture readme.', mimeType: 'text/plain', server: 'fixture' }])
    expect(resultText(results(3)[0]!)).toContain('Fixture readme: hello from a resource.')
    expect(resultText(results(4)[0]!)).toMatch(/MCP server "broken" is not connected \(failed: the server process exited with code 9/)
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init', mcp_servers: [{ name: 'fixture' }, { name: 'broken' }] })
    expect(lines).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning', message: expect.stringContaining('MCP server "broken" is not available') }))
  })

  it('works with @modelcontextprotocol/server-everything: tools, environment without Sous credentials, and prompts as commands', async () => {
    const require = createRequire(import.meta.url)
    const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
    await mcpJson({ everything: { command: process.execPath, args: [everything, 'stdio'] } })
    server.setScenario([
      waitForServers,
      call('mcp__everything__echo', { message: 'from sous' }, 'toolu_echo'),
      call('mcp__everything__get-env', {}, 'toolu_env'),
      textReply('Done.'),
    ])
    // Servers get what every child gets (base/child-env): no credentials, nothing the user marked secret.
    await mkdir(join(headless.home, '.sous'), { recursive: true })
    await writeFile(join(headless.home, '.sous', 'settings.json'), JSON.stringify({ sous: { secretEnv: ['ACME_*'] } }))
    const { code, stderr } = await sous(['--allowedTools', 'mcp__everything', 'Try everything'], { ACME_PROJECT: 'secret-project' })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(resultText(results(2)[0]!)).toContain('from sous')
    const childEnv = resultText(results(3)[0]!)
    expect(childEnv).toContain('CLAUDE_PROJECT_DIR')
    expect(childEnv).not.toContain('test-key')
    expect(childEnv).not.toContain('secret-project')

    // MCP prompts are slash commands; expanding one waits for its own server (only that one).
    server.setScenario([textReply('Sunny.')])
    const prompt = await sous(['/mcp__everything__args-prompt Paris France'])
    expect(prompt.code).toBe(0)
    const sent = JSON.stringify(server.requests.at(-1)!.body['messages'])
    expect(sent).toContain('<command-name>/mcp__everything__args-prompt</command-name>')
    expect(sent).toContain("What's weather in Paris, France?")
  })
})
