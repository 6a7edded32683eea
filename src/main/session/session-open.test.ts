import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import { createSessionRuntime, type SessionRuntime } from '../runtime/runtime'

// What a session sets up when it opens, and what the context view waits for (nothing slow),
// through the runtime every host uses: real MCP servers, the scripted model server.
const server = useModelServer()

let base: string
let project: string
let pty: NodePtyService
let runtime: SessionRuntime | undefined

function start(headless: boolean, mcpConfigs?: string[]): SessionRuntime {
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, PATH: process.env['PATH'] },
    hub: createEventHub(),
    pty,
    permissionMode: 'default',
    answerer: headless ? 'unattended' : 'interactive',
    userHome: join(base, 'home'),
    preferences: () => ({ autoMemory: false }),
    ...(mcpConfigs && { mcpConfigs }),
  })
  return runtime
}

/** The dynamic block of the system prompt the last request carried. */
function lastSystemText(): string {
  const system = server.requests.at(-1)!.body['system'] as Array<{ text: string }>
  return system.map((block) => block.text).join('\n')
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-session-open-'))
  project = join(base, 'project')
  await mkdir(project)
  await mkdir(join(base, 'home'))
  pty = new NodePtyService({ killGraceMs: 300 })
})
afterEach(async () => {
  await runtime?.dispose()
  runtime = undefined
  await pty.dispose()
  await rm(base, { recursive: true, force: true })
})

describe('opening a session', () => {
  it('on the desktop, assembles the system prompt when the session opens: the first request carries what was read then', async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'Indent with tabs.\n')
    const sessions = start(false).sessions
    const { sessionId } = await sessions.create(project)
    await sessions.whenPrepared(sessionId)
    await writeFile(join(project, 'CLAUDE.md'), 'Indent with four spaces.\n')
    server.setScenario([textReply('Noted.'), textReply('Still noted.')])
    expect((await sessions.run(sessionId, 'How do I indent?')).reason).toBe('completed')
    expect(lastSystemText()).toContain('Indent with tabs.')
    expect(lastSystemText()).not.toContain('four spaces')
    // The prompt is the session's: the next request sends the same bytes (the cache keeps hitting).
    const first = JSON.stringify(server.requests.at(-1)!.body['system'])
    expect((await sessions.run(sessionId, 'And YAML?')).reason).toBe('completed')
    expect(JSON.stringify(server.requests.at(-1)!.body['system'])).toBe(first)
  })

  it('headless (sous -p), reads it with the first request instead', async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'Indent with tabs.\n')
    const sessions = start(true).sessions
    const { sessionId } = await sessions.create(project)
    await sessions.whenPrepared(sessionId)
    await writeFile(join(project, 'CLAUDE.md'), 'Indent with four spaces.\n')
    server.setScenario([textReply('Noted.')])
    expect((await sessions.run(sessionId, 'How do I indent?')).reason).toBe('completed')
    expect(lastSystemText()).toContain('Indent with four spaces.')
  })

  it('the context view answers while an MCP server is still connecting, listing it as such, beside one that is connected', async () => {
    const servers = { mcpServers: { quick: fixtureEntry(), slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '60000' }) } }
    const { sessions, mcp } = start(false, [JSON.stringify(servers)])
    const { sessionId } = await sessions.create(project)
    const states = () => mcp.peek(project)?.states() ?? []
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await until(() => states().find((state) => state.name === 'quick')?.status === 'connected')
    expect(states().find((state) => state.name === 'slow')?.status).toBe('connecting')

    const breakdown = await sessions.inspectContext(sessionId)
    const tools = breakdown.groups.find((group) => group.id === 'tools')!.items
    expect(tools.map((item) => item.label)).toEqual(['Built-in tools', 'MCP: quick', 'MCP: slow'])
    expect(tools.find((item) => item.label === 'MCP: quick')).toMatchObject({ detail: expect.stringMatching(/^\d+ tools?$/) })
    expect(tools.find((item) => item.label === 'MCP: quick')!.tokens).toBeGreaterThan(0)
    expect(tools.find((item) => item.label === 'MCP: slow')).toEqual({ label: 'MCP: slow', tokens: 0, detail: 'connecting…' })
    expect(states().find((state) => state.name === 'slow')?.status).toBe('connecting')
  })
})
