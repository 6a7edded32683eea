import { mkdirSync, writeFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { sshdProblem, startTestSshd, type TestSshd } from '../../../../test/support/sshd'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createHostCore, type HostCore } from '../../host-core'
import { MemoryKeyStore } from '../../secrets/memory-key-store'

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
  work = sandboxScratch('.sous-remote-app-')
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

describe.skipIf(problem !== undefined)(skippedUnless('a remote project in the app (the router forwards to its host over ssh)', problem), () => {
  it('opens over ssh, and its sessions, approvals, file tree and terminals go to the remote host', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const remoteSous = `env HOME=${join(work, 'remote-home')} SOUS_HOME=${join(work, 'remote-home', '.sous')} REMOTE_MARK=on-the-remote SOUS_HOST_GRACE_MS=5000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    const opened = await call('remote.open', { destination: sshd.destination, folder: project, remoteSous })
    expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true, value: { path: `ssh://${sshd.destination}${project}`, name: `project (${sshd.destination})` } })
    const path = `ssh://${sshd.destination}${project}`
    expect(await call('remote.recent', {})).toMatchObject({ ok: true, value: [{ destination: sshd.destination, folder: project }] })

    // The file tree reads the remote folder.
    const listed = await call('files.list', { root: path, dir: '' })
    expect(JSON.stringify(listed)).toContain('README.md')

    // A session there: the Write asks, the approval shows here and the answer goes back.
    server.setScenario([toolUseReply('Write', { file_path: join(project, 'approved.txt'), content: 'approved here\n' }, { id: 'toolu_w' }), textReply('Wrote it.')])
    const created = await call('session.create', { projectPath: path })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    expect((await call('session.prompt', { sessionId, text: 'write it' })).ok).toBe(true)
    await expect.poll(() => events.find((event) => event.channel === 'approval.requested'), { timeout: 30_000 }).toBeTruthy()
    const asked = events.find((event) => event.channel === 'approval.requested')!.payload as { id: string; input: { file_path: string } }
    // Paths the remote names come back under the remote's prefix.
    expect(asked.input.file_path).toBe(`${path}/approved.txt`)
    expect(await call('approval.reply', { id: asked.id, decision: 'allow_once' })).toMatchObject({ ok: true })
    await expect.poll(() => events.some((event) => event.channel === 'agent.event' && (event.payload as AgentEvent).type === 'turn_end'), { timeout: 30_000 }).toBe(true)
    expect(await readFile(join(project, 'approved.txt'), 'utf8')).toBe('approved here\n')
    for (const request of server.requests) expect(request.headers['x-api-key']).toBe('LOCAL-APP-KEY')

    // A terminal there: its shell is the remote's.
    const terminal = await call('pty.create', { cwd: path, cols: 80, rows: 24 })
    if (!terminal.ok) throw new Error(JSON.stringify(terminal))
    const id = (terminal.value as { id: string }).id
    expect((await call('pty.write', { id, data: 'echo "mark:$REMOTE_MARK:$(pwd)"\r' })).ok).toBe(true)
    const output = () => events.filter((event) => event.channel === 'pty.data' && (event.payload as { id: string }).id === id).map((event) => (event.payload as { data: string }).data).join('')
    await expect.poll(output, { timeout: 20_000 }).toContain(`mark:on-the-remote:${project}`)
    expect((await call('pty.kill', { id })).ok).toBe(true)
  }, 120_000)

  it('a destination that refuses is told with ssh’s message', async () => {
    const opened = await call('remote.open', { destination: '-oProxyCommand=x', folder: '/srv' })
    expect(opened).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    writeFileSync(sshd.clientConfig, `Host sous-closed\n  HostName 127.0.0.1\n  Port 9\n${await readFile(sshd.clientConfig, 'utf8')}`)
    const refused = await call('remote.open', { destination: 'sous-closed', folder: '/srv' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE', message: expect.stringContaining('Connection refused') } })
  }, 60_000)
})
