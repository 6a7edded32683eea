import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { sshdProblem, startTestSshd, type TestSshd } from '../../../../test/support/sshd'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createHostCore, type HostCore } from '../../host-core'
import { MemoryKeyStore } from '../../secrets/memory-key-store'

// A connection killed mid-turn whose host does not wait (a grace period of 300 ms): the app
// reconnects to a fresh host, resumes the session from its transcript, the cut call reads
// "interrupted" (not failed), and the conversation goes on.
const problem = sshdProblem()
let sshd: TestSshd
let server: ModelServer
let work: string
let project: string
let local: HostCore
const events: Array<{ channel: string; payload: unknown }> = []

beforeAll(async () => {
  if (problem) return
  sshd = await startTestSshd()
  server = await startModelServer({ scenario: [] })
  work = sandboxScratch('.sous-remote-interrupted-')
  project = join(work, 'project')
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'README.md'), 'remote readme\n')
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, SOUS_HOME: join(work, 'local-home'), SOUS_SSH: sshd.sshCommand, ANTHROPIC_API_KEY: 'LOCAL-APP-KEY', ANTHROPIC_BASE_URL: server.url }
  local = createHostCore({ transport: 'browser', home: env.SOUS_HOME, env, keyStore: new MemoryKeyStore(env), log: () => {} })
  local.core.events.subscribe((channel, payload) => void events.push({ channel, payload }))
}, 60_000)
afterAll(async () => {
  if (problem) return
  await local.dispose()
  await server.close()
  await sshd.close()
  await rm(work, { recursive: true, force: true })
})

const call = (channel: string, payload: unknown) => local.core.router.invoke(channel, payload, { transport: 'ws', origin: 'http://127.0.0.1' })

function sshClients(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv[0] === 'ssh' && argv.includes(sshd.clientConfig)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe.skipIf(problem !== undefined)(skippedUnless('a remote turn cut by a dropped connection (a real sshd on 127.0.0.1)', problem), () => {
  it('marks the cut tool call interrupted, and the resumed session goes on', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const remoteSous = `env HOME=${join(work, 'remote-home')} SOUS_HOME=${join(work, 'remote-home', '.sous')} SOUS_HOST_GRACE_MS=300 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    const opened = await call('remote.open', { destination: sshd.destination, folder: project, remoteSous })
    expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true })
    const path = `ssh://${sshd.destination}${project}`
    server.setScenario([toolUseReply('Bash', { command: 'sleep 30' }, { id: 'toolu_cut' }), textReply('Picked up where we were.')])
    const created = await call('session.create', { projectPath: path })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    expect(await call('session.setMode', { sessionId, mode: 'bypassPermissions' })).toMatchObject({ ok: true })
    expect((await call('session.prompt', { sessionId, text: 'sleep' })).ok).toBe(true)
    const agent = () => events.filter((event) => event.channel === 'agent.event').map((event) => event.payload as AgentEvent)
    await expect.poll(() => agent().some((event) => event.type === 'tool_state' && event.toolUseId === 'toolu_cut' && event.state === 'running'), { timeout: 30_000 }).toBe(true)

    const killed = sshClients()
    expect(killed.length).toBeGreaterThan(0)
    for (const pid of killed) process.kill(pid, 'SIGKILL')
    const connection = () => events.filter((event) => event.channel === 'remote.connection').map((event) => (event.payload as { state: string }).state)
    await expect.poll(connection, { timeout: 30_000 }).toContain('reconnecting')
    await expect.poll(connection, { timeout: 30_000 }).toContain('connected')

    // The host that ran the turn is gone: the session is resumed on the new one from its
    // transcript, and the window is told the cut call was interrupted and the turn ended.
    await expect.poll(() => agent().find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_cut'), { timeout: 30_000 }).toMatchObject({ isError: true, interrupted: true })
    await expect.poll(() => agent().find((event) => event.type === 'turn_end'), { timeout: 30_000 }).toMatchObject({ reason: 'aborted' })
    const history = await call('session.history', { sessionId })
    if (!history.ok) throw new Error(JSON.stringify(history))
    const cut = (history.value as { events: AgentEvent[] }).events.filter((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_cut')
    expect(cut).toHaveLength(1)
    expect(cut[0]).toMatchObject({ isError: true, interrupted: true })

    expect((await call('session.prompt', { sessionId, text: 'go on' })).ok).toBe(true)
    await expect.poll(() => agent().some((event) => event.type === 'assistant_message' && event.text === 'Picked up where we were.'), { timeout: 30_000 }).toBe(true).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${JSON.stringify(agent().slice(-8))}\n${server.requests.length}\n${JSON.stringify(events.filter((e) => e.channel !== 'agent.event').slice(-6))}`)
    })
    // The model saw the cut call answered, as an error, before the new prompt.
    const last = JSON.stringify(server.requests.at(-1)?.body['messages'])
    expect(last).toContain('toolu_cut')
    expect(last).toContain('go on')
  }, 120_000)
})
