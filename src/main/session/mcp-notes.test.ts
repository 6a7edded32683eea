import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import { createSessionRuntime, type SessionRuntime } from './runtime'

// A server slower than the first request: the request does not wait, the server's tools join the
// next one, and the model is told (a system reminder) — through the real runtime and model SDK.
const server = useModelServer()

let base: string
let runtime: SessionRuntime
let pty: NodePtyService
const notices: string[] = []

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-mcp-notes-'))
  notices.length = 0
  const hub = createEventHub()
  hub.subscribe((channel, payload) => {
    const event = payload as AgentEvent
    if (channel === 'agent.event' && event.type === 'notice') notices.push(event.message)
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, PATH: process.env['PATH'] },
    hub,
    pty,
    permissionMode: 'default',
    headless: true,
    userHome: join(base, 'home'),
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  await rm(base, { recursive: true, force: true })
})

describe('MCP servers joining a running session', () => {
  it('never holds the first request, offers the tools once connected, and tells the model', async () => {
    const project = join(base, 'project')
    await mkdir(project)
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { slow: fixtureEntry({ FIXTURE_START_DELAY_MS: '1500' }) } }))
    server.setScenario([textReply('First.'), textReply('Second.')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'first')
    const firstTools = (server.requests[0]!.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)
    // Had the request waited for the server, its tools would be here.
    expect(firstTools).not.toContain('mcp__slow__echo')
    expect(firstTools).toContain('WaitForMcpServers')
    await runtime.mcp.peek(project)!.waitFor(undefined, 20_000)
    await expect.poll(() => notices.some((message) => message.startsWith('MCP server "slow" has connected'))).toBe(true)

    await runtime.sessions.run(sessionId, 'second')
    const second = server.requests[1]!.body
    expect((second['tools'] as Array<{ name: string }>).map((tool) => tool.name)).toContain('mcp__slow__echo')
    expect(JSON.stringify(second['messages'])).toMatch(/<system-reminder>\\nMCP server \\"slow\\" has connected\. Its tools are now available: mcp__slow__echo/)
    expect(server.failures).toEqual([])
  })
})
