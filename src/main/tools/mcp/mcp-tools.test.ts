import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../../test/mcp/fixture'
import { McpServers } from '../../services/mcp'
import { runToolCall } from '../run-tool'
import type { ToolContext } from '../types'
import { McpToolPool } from './mcp-pool'
import { toToolResult } from './mcp-result'
import { apiInputSchema } from './mcp-schema'

describe('apiInputSchema', () => {
  it('keeps object schemas and drops $schema', () => {
    expect(apiInputSchema({ $schema: 'x', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toEqual({ schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } })
    expect(apiInputSchema({})).toEqual({ schema: { type: 'object', properties: {} } })
  })

  it('flattens a root combinator into one object and describes the groups', () => {
    const oneOf = apiInputSchema({ oneOf: [{ properties: { id: { type: 'string' } }, required: ['id'] }, { properties: { name: { type: 'string' } }, required: ['name'] }] })
    expect(oneOf.schema).toEqual({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } })
    expect(oneOf.note).toBe('Pass exactly one of these parameter groups: (id) or (name).')
    const allOf = apiInputSchema({ allOf: [{ properties: { a: {} }, required: ['a'] }, { properties: { b: {} }, required: ['b'] }] })
    expect(allOf).toEqual({ schema: { type: 'object', properties: { a: {}, b: {} }, required: ['a', 'b'] } })
  })
})

describe('toToolResult', () => {
  it('keeps text and accepted images, notes the rest, and caps text', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'a'.repeat(30) },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'image', data: 'AAAA', mimeType: 'image/tiff' },
          { type: 'resource', uri: 'x://blob', blob: 'AAAAAAAA' },
          { type: 'resource_link', uri: 'x://l', name: 'link' },
        ],
        isError: false,
      },
      { outputTokens: 1000, details: { server: 's' } },
    )
    const content = result.content as Array<{ type: string; text?: string }>
    expect(content[0]).toEqual({ type: 'text', text: 'a'.repeat(30) })
    expect(content[1]).toMatchObject({ type: 'image', source: { media_type: 'image/png' } })
    expect(content[2]!.text).toMatch(/image of type image\/tiff omitted/)
    expect(content[3]!.text).toBe('[binary resource x://blob, 6 bytes omitted]')
    expect(content[4]!.text).toBe('[resource link: link <x://l>]')
    const capped = toToolResult({ content: [{ type: 'text', text: 'a'.repeat(30) }, { type: 'text', text: 'b'.repeat(30) }], isError: false }, { outputTokens: 10, details: {} })
    expect(capped.content).toBe(`${'a'.repeat(30)}\n${'b'.repeat(10)}\n\n[MCP output truncated: 20 more characters over the limit of 40 (MAX_MCP_OUTPUT_TOKENS=10). Ask for less (filters, pages), or raise MAX_MCP_OUTPUT_TOKENS.]`)
    expect(toToolResult({ content: [], structuredContent: { n: 1 }, isError: true }, { outputTokens: 100, details: {} })).toEqual({
      content: '{\n  "n": 1\n}',
      details: { structuredContent: { n: 1 } },
      isError: true,
    })
  })
})

describe('McpToolPool', () => {
  let project: string | undefined
  let servers: McpServers | undefined
  afterEach(async () => {
    await servers?.dispose()
    if (project) await rm(project, { recursive: true, force: true })
  })

  it('offers tools as servers join, keeps a crashed server tools, and says what changed', async () => {
    project = await mkdtemp(join(tmpdir(), 'sous-pool-'))
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry({ FIXTURE_START_DELAY_MS: '300' }) } }))
    servers = new McpServers({ projectRoot: project, userHome: project, sousHome: project, env: { PATH: process.env['PATH'] }, trusted: () => true, projectApproval: 'all' })
    servers.start()
    const pool = new McpToolPool(servers, { outputTokens: 25_000 })
    const first = pool.tools()
    expect(first.map((tool) => tool.name)).toEqual(['ListMcpResourcesTool', 'ReadMcpResourceTool', 'WaitForMcpServers'])
    expect(pool.tools()).toBe(first)
    await servers.waitFor(undefined, 15_000)
    const joined = pool.tools()
    expect(joined.map((tool) => tool.name)).toContain('mcp__fixture__echo')
    expect(pool.news()).toEqual([expect.stringMatching(/^MCP server "fixture" has connected\. Its tools are now available: mcp__fixture__echo, .*\. Its instructions:\nA fixture server for tests\.$/)])
    expect(pool.news()).toEqual([])

    const echo = joined.find((tool) => tool.name === 'mcp__fixture__echo')!
    expect(echo.isReadOnly({})).toBe(true)
    expect(echo.isConcurrencySafe({})).toBe(true)
    const add = joined.find((tool) => tool.name === 'mcp__fixture__add')!
    expect([add.isReadOnly({}), add.isDestructive({}), add.isConcurrencySafe({})]).toEqual([false, false, false])
    const crash = joined.find((tool) => tool.name === 'mcp__fixture__crash')!
    expect(crash.isDestructive({})).toBe(true)
    const preview = await add.preview!({ a: 1, b: 2 }, {} as ToolContext)
    expect(preview).toMatchObject({ kind: 'text', text: expect.stringContaining('Changes things but destroys nothing, according to the server.') })

    const context = { cwd: project, projectRoot: project, projectDataDir: project, sessionId: 's', agentId: 'main', toolUseId: 't', signal: new AbortController().signal, progress: () => {} }
    expect(await runToolCall(add, { a: 2, b: 40 }, context)).toEqual({ content: '42', details: { server: 'fixture', tool: 'add' } })
    const added = await runToolCall(joined.find((tool) => tool.name === 'mcp__fixture__add_tool')!, {}, context)
    expect(added.content).toBe('added late_tool')
    await expect.poll(() => pool.news(), { timeout: 10_000 }).toEqual([expect.stringMatching(/^The tools of MCP server "fixture" changed\. They are now: .*mcp__fixture__late_tool/)])

    const crashed = await runToolCall(crash, {}, context)
    expect(crashed).toMatchObject({ isError: true, content: expect.stringContaining('stopped while calling crash') })
    await expect.poll(() => pool.news(), { timeout: 10_000 }).toEqual([expect.stringMatching(/^MCP server "fixture" is not available: the server process exited with code 3/)])
    expect(pool.tools().map((tool) => tool.name)).toContain('mcp__fixture__echo')
  })

  it('leaves out tools and servers the user turned off, and remembers it for the next session', async () => {
    project = await mkdtemp(join(tmpdir(), 'sous-pool-'))
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }))
    const options = { projectRoot: project, userHome: project, sousHome: join(project, 'sous-home'), env: { PATH: process.env['PATH'] }, trusted: () => true, projectApproval: 'all' } as const
    servers = new McpServers(options)
    servers.start()
    const pool = new McpToolPool(servers, { outputTokens: 25_000 })
    await servers.waitFor(undefined, 15_000)
    const mcpNames = () => pool.tools().map((tool) => tool.name).filter((name) => name.startsWith('mcp__'))
    expect(mcpNames()).toContain('mcp__fixture__add')

    expect(await servers.setEnabled({ server: 'fixture', tool: 'add', enabled: false })).toBeUndefined()
    expect(mcpNames()).not.toContain('mcp__fixture__add')
    expect(mcpNames()).toContain('mcp__fixture__echo')
    expect(servers.states()[0]).toMatchObject({ status: 'connected', turnedOff: false, disabledTools: ['add'] })

    expect(await servers.setEnabled({ server: 'fixture', enabled: false })).toBeUndefined()
    expect(servers.states()[0]).toMatchObject({ status: 'disabled', turnedOff: true, error: 'turned off in the Extensions view' })
    expect(mcpNames()).toEqual([])
    await servers.dispose()

    // A later session of the project starts with the same choices.
    servers = new McpServers(options)
    servers.start()
    expect(servers.states()[0]).toMatchObject({ status: 'disabled', turnedOff: true })
    expect(await servers.setEnabled({ server: 'fixture', enabled: true })).toBeUndefined()
    expect(servers.states()[0]!.status).toBe('connected')
    const later = new McpToolPool(servers, { outputTokens: 25_000 })
    const names = later.tools().map((tool) => tool.name)
    expect(names).toContain('mcp__fixture__echo')
    expect(names).not.toContain('mcp__fixture__add')
    expect(await servers.setEnabled({ server: 'nope', enabled: false })).toBe('no MCP server named "nope"')
  })
})
