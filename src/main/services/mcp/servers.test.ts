import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../../test/mcp/fixture'
import { McpServers, type McpServersOptions } from './servers'
import { McpCallError } from './types'

// Real MCP servers (the stdio fixture, started with node) behind the real SDK client.
let project: string
let home: string
let servers: McpServers | undefined

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'sous-mcp-project-'))
  home = await mkdtemp(join(tmpdir(), 'sous-mcp-home-'))
})
afterEach(async () => {
  await servers?.dispose()
  servers = undefined
  await rm(project, { recursive: true, force: true })
  await rm(home, { recursive: true, force: true })
})

async function start(mcpServers: Record<string, unknown>, options: Partial<McpServersOptions> = {}): Promise<McpServers> {
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers }))
  servers = new McpServers({ projectRoot: project, userHome: home, sousHome: join(home, '.sous'), env: { PATH: process.env['PATH'] }, trusted: () => true, projectApproval: 'all', ...options })
  servers.start()
  return servers
}

const signal = () => new AbortController().signal

describe('McpServers', () => {
  it('starts a stdio server, lists what it offers and calls a tool', async () => {
    const set = await start({ fixture: fixtureEntry() })
    expect(set.get('fixture')!.current).toBe('connecting')
    await set.waitFor(undefined, 15_000)
    const state = set.states()[0]!
    expect(state).toMatchObject({ name: 'fixture', scope: 'project', transport: 'stdio', status: 'connected', serverInfo: { name: 'fixture' }, instructions: 'A fixture server for tests.' })
    expect(state.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add', 'crash', 'hang']))
    expect(state.tools.find((tool) => tool.name === 'echo')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
    expect(state.resources).toEqual([expect.objectContaining({ uri: 'fixture://readme' })])
    expect(state.prompts[0]).toMatchObject({ name: 'review', arguments: [{ name: 'file', required: true }, { name: 'focus', required: false }] })
    const result = await set.get('fixture')!.callTool('echo', { message: 'hi' }, signal())
    expect(result).toEqual({ content: [{ type: 'text', text: 'echo: hi' }], isError: false })
    const resource = await set.get('fixture')!.readResource('fixture://readme', signal())
    expect(resource[0]).toMatchObject({ type: 'resource', text: 'Fixture readme: hello from a resource.' })
  })

  it('reports a crash, fails later calls clearly, and restarts', async () => {
    const set = await start({ fixture: fixtureEntry() })
    await set.waitFor(undefined, 15_000)
    const connection = set.get('fixture')!
    await expect(connection.callTool('crash', {}, signal())).rejects.toThrow(/stopped while calling crash: the server process exited with code 3/)
    expect(set.states()[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('exited with code 3') })
    expect(set.states()[0]!.tools.length).toBeGreaterThan(0)
    await expect(connection.callTool('echo', { message: 'x' }, signal())).rejects.toThrow(/is not connected \(the server process exited with code 3.*\)\. Its tools cannot be used until the server is restarted/)
    expect(await set.restart('fixture')).toBeUndefined()
    expect(connection.current).toBe('connected')
    expect((await connection.callTool('echo', { message: 'back' }, signal())).content).toEqual([{ type: 'text', text: 'echo: back' }])
  })

  it('times out a hung call without affecting the next one', async () => {
    const set = await start({ fixture: fixtureEntry({}, { timeout: 1000 }) })
    await set.waitFor(undefined, 15_000)
    const connection = set.get('fixture')!
    const error = await connection.callTool('hang', {}, signal()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(McpCallError)
    expect((error as Error).message).toMatch(/did not answer within 1 s \(calling hang\); the call was cancelled/)
    expect((await connection.callTool('add', { a: 2, b: 3 }, signal())).content).toEqual([{ type: 'text', text: '5' }])
  })

  it('fails a server that exits before the handshake, with its stderr, and leaves the others alone', async () => {
    const set = await start({ broken: fixtureEntry({ FIXTURE_EXIT_AT_START: '7' }), good: fixtureEntry() })
    await set.waitFor(undefined, 15_000)
    const [broken, good] = set.states()
    expect(broken).toMatchObject({ status: 'failed', error: expect.stringMatching(/exited with code 7 before it finished starting: fixture: refusing to start/) })
    expect(good!.status).toBe('connected')
  })

  it('fails a server that does not start in time', async () => {
    const set = await start({ slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '5000' }) }, { env: { PATH: process.env['PATH'], MCP_TIMEOUT: '500' } })
    await set.waitFor(undefined, 10_000)
    expect(set.states()[0]).toMatchObject({ status: 'failed', error: 'did not finish starting within 500 ms' })
  })

  it('never hands Sous credentials to a server, not even through ${VAR}', async () => {
    const env = { PATH: process.env['PATH'], ANTHROPIC_API_KEY: 'sk-secret', ANTHROPIC_AUTH_TOKEN: 'tok-secret', VISIBLE: 'yes' }
    const set = await start({ fixture: fixtureEntry({ LEAK: '${ANTHROPIC_API_KEY}', SHOWN: '${VISIBLE}' }) }, { env })
    await set.waitFor(undefined, 15_000)
    const result = await set.get('fixture')!.callTool('env', {}, signal())
    const childEnv = JSON.parse((result.content[0] as { text: string }).text) as Record<string, string>
    expect(JSON.stringify(childEnv)).not.toContain('secret')
    expect(childEnv['SHOWN']).toBe('yes')
    expect(childEnv['LEAK']).toBe('${ANTHROPIC_API_KEY}')
    expect(childEnv['CLAUDE_PROJECT_DIR']).toBe(project)
    expect(set.states()[0]!.warnings).toEqual([expect.stringContaining('ANTHROPIC_API_KEY is not set')])
  })

  it('follows tools/list_changed', async () => {
    const set = await start({ fixture: fixtureEntry() })
    await set.waitFor(undefined, 15_000)
    const changed = new Promise<void>((resolve) => set.subscribe(() => set.states()[0]!.tools.some((tool) => tool.name === 'late_tool') && resolve()))
    await set.get('fixture')!.callTool('add_tool', {}, signal())
    await changed
    expect(set.states()[0]!.logs.some((line) => line.text === 'tools changed (10)')).toBe(true)
  })

  it('holds project servers back until the folder is trusted and the server approved', async () => {
    await mkdir(join(project, '.claude'), { recursive: true })
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true, disabledMcpjsonServers: ['off'] }))
    let folderTrusted = false
    const asked: Array<string | null> = []
    const untrusted = await start({ fixture: fixtureEntry(), off: fixtureEntry() }, {
      trusted: (text) => {
        asked.push(text)
        return folderTrusted
      },
      projectApproval: 'all',
    })
    expect(untrusted.states().map((state) => state.status)).toEqual(['untrusted', 'disabled'])
    // Trust is judged on the file as it was read, not as it may be by the time the user trusts.
    expect(JSON.parse(asked[0]!).mcpServers.fixture).toEqual(fixtureEntry())
    folderTrusted = true
    untrusted.startHeld()
    await untrusted.waitFor(['fixture'], 15_000)
    expect(untrusted.states().map((state) => state.status)).toEqual(['connected', 'disabled'])
    await untrusted.dispose()
    // Trusted, but a committed settings file cannot approve its own servers.
    const trusted = await start({ fixture: fixtureEntry(), off: fixtureEntry() }, { trusted: () => true, projectApproval: 'ask' })
    expect(trusted.states().map((state) => state.status)).toEqual(['needs-approval', 'disabled'])
    expect(await trusted.approve('fixture')).toBeUndefined()
    expect(trusted.get('fixture')!.current).toBe('connected')
    await trusted.dispose()
    // The approval holds for exactly that definition.
    const again = await start({ fixture: fixtureEntry() }, { projectApproval: 'ask' })
    expect(again.get('fixture')!.current).toBe('connecting')
    await again.dispose()
    const changed = await start({ fixture: fixtureEntry({ NEW: '1' }) }, { projectApproval: 'ask' })
    expect(changed.get('fixture')!.current).toBe('needs-approval')
  })
})
