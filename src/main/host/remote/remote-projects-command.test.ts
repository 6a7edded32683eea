import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, type ModelServer } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createHostCore, type HostCore } from '../../host-core'
import { MemoryKeyStore } from '../../secrets/memory-key-store'

// "Open remote project…" with the user's own transport command (no ssh): a real second Sous.
let work: string
let project: string
let local: HostCore
let server: ModelServer
const events: Array<{ channel: string; payload: unknown }> = []

beforeAll(async () => {
  server = await startModelServer({ scenario: [] })
  work = mkdtempSync(join(tmpdir(), 'sous-remote-app-command-'))
  project = join(work, 'project')
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'README.md'), 'behind a command\n')
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, SOUS_HOME: join(work, 'local-home'), ANTHROPIC_API_KEY: 'LOCAL-APP-KEY', ANTHROPIC_BASE_URL: server.url }
  local = createHostCore({ transport: 'browser', home: env.SOUS_HOME, env, keyStore: new MemoryKeyStore(env), log: () => {} })
  local.core.events.subscribe((channel, payload) => void events.push({ channel, payload }))
})
afterAll(async () => {
  await local.dispose()
  await server.close()
  await rm(work, { recursive: true, force: true })
})

const call = (channel: string, payload: unknown) => local.core.router.invoke(channel, payload, { transport: 'ws', origin: 'http://127.0.0.1' })

describe('a remote project reached through a transport command', () => {
  it('opens, is named by the user’s name for it, lists its files, and is remembered with its command', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const command = `env HOME=${join(work, 'remote-home')} SOUS_HOME=${join(work, 'remote-home', '.sous')} SOUS_HOST_GRACE_MS=3000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    const target = { destination: 'pod', folder: project, transport: { kind: 'command', command } }
    const opened = await call('remote.open', target)
    expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true, value: { path: `ssh://pod${project}`, name: 'project (pod)' } })
    expect(JSON.stringify(await call('files.list', { root: `ssh://pod${project}`, dir: '' }))).toContain('README.md')
    expect(await call('remote.recent', {})).toMatchObject({ ok: true, value: [target] })

    // A session there is listed with every project's sessions here, under the remote's path (which names it).
    server.setScenario([textReply('Stored over there.')])
    const created = await call('session.create', { projectPath: `ssh://pod${project}` })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    expect((await call('session.prompt', { sessionId, text: 'store me' })).ok).toBe(true)
    await expect.poll(() => events.some((event) => event.channel === 'agent.event' && (event.payload as AgentEvent).type === 'turn_end'), { timeout: 30_000 }).toBe(true)
    const listed = await call('session.list', {})
    expect(listed).toMatchObject({ ok: true, value: [{ sessionId, projectPath: `ssh://pod${project}` }] })
    const history = await call('session.history', { sessionId })
    expect(JSON.stringify(history)).toContain('Stored over there.')
  }, 120_000)

  it('a failing command is told with its stderr and exit code; an empty one is refused by the contract', async () => {
    const failed = await call('remote.open', { destination: 'pod2', folder: project, transport: { kind: 'command', command: 'echo "no such pod" >&2; exit 4; true' } })
    expect(failed).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE', message: expect.stringContaining('ended before the handshake (exit 4)') } })
    expect(JSON.stringify(failed)).toContain('no such pod')
    expect(await call('remote.open', { destination: 'pod3', folder: project, transport: { kind: 'command', command: '  ' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  }, 60_000)
})
