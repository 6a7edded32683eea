import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createHostCore, type HostCore } from '../../host-core'
import { MemoryKeyStore } from '../../secrets/memory-key-store'

// The app's path: "Open remote project…" (the command transport, a real second Sous) with an MCP
// server the user marked local. The remote's gate asks for its tool as for any MCP tool, and the
// question reaches this window; the server runs in this process's children.
const FIXTURE = join(ROOT, 'test', 'mcp', 'fixture-server.mjs')
let work: string
let project: string
let local: HostCore
let server: ModelServer
const events: Array<{ channel: string; payload: unknown }> = []

beforeAll(async () => {
  server = await startModelServer({ scenario: [] })
  work = mkdtempSync(join(tmpdir(), 'sous-remote-app-local-mcp-'))
  project = join(work, 'project')
  const localHome = join(work, 'local-home')
  for (const dir of [project, localHome]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(localHome, 'settings.json'), JSON.stringify({ remoteLocalMcpServers: ['laptop'], mcpServers: { laptop: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_PID_FILE: join(work, 'pid.txt') } } } }))
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, SOUS_HOME: localHome, ANTHROPIC_API_KEY: 'LOCAL-APP-KEY', ANTHROPIC_BASE_URL: server.url }
  local = createHostCore({ transport: 'browser', home: env.SOUS_HOME, env, keyStore: new MemoryKeyStore(env), log: () => {} })
  local.core.events.subscribe((channel, payload) => void events.push({ channel, payload }))
})
afterAll(async () => {
  await local.dispose()
  await server.close()
  await rm(work, { recursive: true, force: true })
})

const call = (channel: string, payload: unknown) => local.core.router.invoke(channel, payload, { transport: 'ws', origin: 'http://127.0.0.1' })

describe('a remote project in the app with a local MCP server', () => {
  it('lists it as a server there, asks before its tool runs, and runs it here', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const command = `env HOME=${join(work, 'remote-home')} SOUS_HOME=${join(work, 'remote-home', '.sous')} SOUS_HOST_GRACE_MS=3000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    expect((await call('remote.open', { destination: 'pod', folder: project, transport: { kind: 'command', command } })).ok).toBe(true)
    const created = await call('session.create', { projectPath: `ssh://pod${project}` })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    const connected = (): boolean =>
      events.some((event) => event.channel === 'mcp.status' && JSON.stringify(event.payload).includes('"name":"laptop"') && JSON.stringify(event.payload).includes('"status":"connected"'))
    await expect.poll(connected, { timeout: 60_000 }).toBe(true)

    server.setScenario([toolUseReply('mcp__laptop__add', { a: 2, b: 40 }, { id: 'toolu_add' }), textReply('Added.')])
    expect((await call('session.prompt', { sessionId, text: 'add them' })).ok).toBe(true)
    const request = () => events.find((event) => event.channel === 'approval.requested')?.payload as { id: string } | undefined
    await expect.poll(request, { timeout: 60_000 }).toBeDefined()
    const asked = request() as { id: string }
    expect(JSON.stringify(asked)).toContain('mcp__laptop__add')
    expect((await call('approval.reply', { id: asked.id, decision: 'allow_once' })).ok).toBe(true)
    await expect.poll(() => events.some((event) => event.channel === 'agent.event' && (event.payload as AgentEvent).type === 'turn_end'), { timeout: 60_000 }).toBe(true)
    expect(JSON.stringify(server.requests.at(-1)?.body['messages'])).toContain('42')
    expect(Number(readFileSync(join(work, 'pid.txt'), 'utf8').split(' ')[1])).toBe(process.pid)
  }, 180_000)
})
