import { writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import { useRemoteApp } from '../../../../test/support/remote-app'
import { skippedUnless } from '../../../../test/support/sandbox-scratch'
import type { AgentEvent } from '../../../shared/protocol/agent-event'

const world = useRemoteApp('.sous-remote-app-')
const { problem, events } = world

describe.skipIf(problem !== undefined)(skippedUnless('a remote project in the app (the router forwards to its host over ssh)', problem), () => {
  it('opens over ssh, and its sessions, approvals, file tree and terminals go to the remote host', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const remoteSous = `env HOME=${join(world.work, 'remote-home')} SOUS_HOME=${join(world.work, 'remote-home', '.sous')} REMOTE_MARK=on-the-remote SOUS_HOST_GRACE_MS=5000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    const opened = await world.call('remote.open', { destination: world.sshd.destination, folder: world.project, remoteSous })
    expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true, value: { path: `ssh://${world.sshd.destination}${world.project}`, name: `project (${world.sshd.destination})` } })
    const path = `ssh://${world.sshd.destination}${world.project}`
    expect(await world.call('remote.recent', {})).toMatchObject({ ok: true, value: [{ destination: world.sshd.destination, folder: world.project }] })

    // The file tree reads the remote folder.
    const listed = await world.call('files.list', { root: path, dir: '' })
    expect(JSON.stringify(listed)).toContain('README.md')

    // A session there: the Write asks, the approval shows here and the answer goes back.
    world.server.setScenario([toolUseReply('Write', { file_path: join(world.project, 'approved.txt'), content: 'approved here\n' }, { id: 'toolu_w' }), textReply('Wrote it.')])
    const created = await world.call('session.create', { projectPath: path })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    expect((await world.call('session.prompt', { sessionId, text: 'write it' })).ok).toBe(true)
    await expect.poll(() => events.find((event) => event.channel === 'approval.requested'), { timeout: 30_000 }).toBeTruthy()
    const asked = events.find((event) => event.channel === 'approval.requested')!.payload as { id: string; input: { file_path: string } }
    // Paths the remote names come back under the remote's prefix.
    expect(asked.input.file_path).toBe(`${path}/approved.txt`)
    expect(await world.call('approval.reply', { id: asked.id, decision: 'allow_once' })).toMatchObject({ ok: true })
    await expect.poll(() => events.some((event) => event.channel === 'agent.event' && (event.payload as AgentEvent).type === 'turn_end'), { timeout: 30_000 }).toBe(true)
    expect(await readFile(join(world.project, 'approved.txt'), 'utf8')).toBe('approved here\n')
    for (const request of world.server.requests) expect(request.headers['x-api-key']).toBe('LOCAL-APP-KEY')

    // A terminal there: its shell is the remote's.
    const terminal = await world.call('pty.create', { cwd: path, cols: 80, rows: 24 })
    if (!terminal.ok) throw new Error(JSON.stringify(terminal))
    const id = (terminal.value as { id: string }).id
    // Every host numbers its terminals from 1: a remote's are namespaced, so a local one never meets it.
    expect(id).toMatch(/^r\d+:pty_\d+$/)
    const localTerminal = await world.call('pty.create', { cwd: world.work, cols: 80, rows: 24 })
    if (!localTerminal.ok) throw new Error(JSON.stringify(localTerminal))
    const localId = (localTerminal.value as { id: string }).id
    expect(localId).toMatch(/^pty_\d+$/)
    expect((await world.call('pty.write', { id, data: 'echo "mark:$REMOTE_MARK:$(pwd)"\r' })).ok).toBe(true)
    const output = () => events.filter((event) => event.channel === 'pty.data' && (event.payload as { id: string }).id === id).map((event) => (event.payload as { data: string }).data).join('')
    await expect.poll(output, { timeout: 20_000 }).toContain(`mark:on-the-remote:${world.project}`)
    expect(events.filter((event) => event.channel === 'pty.data' && (event.payload as { id: string }).id === localId).map((event) => (event.payload as { data: string }).data).join('')).not.toContain('mark:on-the-remote')
    expect((await world.call('pty.kill', { id })).ok).toBe(true)
    expect((await world.call('pty.kill', { id: localId })).ok).toBe(true)
  }, 120_000)

  it('a destination that refuses is told with ssh’s message', async () => {
    const opened = await world.call('remote.open', { destination: '-oProxyCommand=x', folder: '/srv' })
    expect(opened).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    writeFileSync(world.sshd.clientConfig, `Host sous-closed\n  HostName 127.0.0.1\n  Port 9\n${await readFile(world.sshd.clientConfig, 'utf8')}`)
    const refused = await world.call('remote.open', { destination: 'sous-closed', folder: '/srv' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE', message: expect.stringContaining('Connection refused') } })
  }, 60_000)
})
