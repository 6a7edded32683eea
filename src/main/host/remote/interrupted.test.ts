import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../../test/model-server'
import { ROOT } from '../../../../test/support/remote-host'
import { useRemoteApp } from '../../../../test/support/remote-app'
import { skippedUnless } from '../../../../test/support/sandbox-scratch'
import type { AgentEvent } from '../../../shared/protocol/agent-event'

// A connection killed mid-turn whose host does not wait (a grace period of 300 ms): the app
// reconnects to a fresh host, resumes the session from its transcript, the cut call reads
// "interrupted" (not failed), and the conversation goes on.
const world = useRemoteApp('.sous-remote-interrupted-')
const { problem, events } = world

function sshClients(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv[0] === 'ssh' && argv.includes(world.sshd.clientConfig)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe.skipIf(problem !== undefined)(skippedUnless('a remote turn cut by a dropped connection (a real sshd on 127.0.0.1)', problem), () => {
  it('marks the cut tool call interrupted, and the resumed session goes on', async () => {
    const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
    const remoteSous = `env HOME=${join(world.work, 'remote-home')} SOUS_HOME=${join(world.work, 'remote-home', '.sous')} SOUS_HOST_GRACE_MS=300 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
    const opened = await world.call('remote.open', { destination: world.sshd.destination, folder: world.project, remoteSous })
    expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true })
    const path = `ssh://${world.sshd.destination}${world.project}`
    world.server.setScenario([toolUseReply('Bash', { command: 'sleep 30' }, { id: 'toolu_cut' }), textReply('Picked up where we were.')])
    const created = await world.call('session.create', { projectPath: path })
    if (!created.ok) throw new Error(JSON.stringify(created))
    const sessionId = (created.value as { sessionId: string }).sessionId
    expect(await world.call('session.setMode', { sessionId, mode: 'bypassPermissions' })).toMatchObject({ ok: true })
    expect((await world.call('session.prompt', { sessionId, text: 'sleep' })).ok).toBe(true)
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
    const history = await world.call('session.history', { sessionId })
    if (!history.ok) throw new Error(JSON.stringify(history))
    const cut = (history.value as { events: AgentEvent[] }).events.filter((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_cut')
    expect(cut).toHaveLength(1)
    expect(cut[0]).toMatchObject({ isError: true, interrupted: true })

    expect((await world.call('session.prompt', { sessionId, text: 'go on' })).ok).toBe(true)
    await expect.poll(() => agent().some((event) => event.type === 'assistant_message' && event.text === 'Picked up where we were.'), { timeout: 30_000 }).toBe(true).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${JSON.stringify(agent().slice(-8))}\n${world.server.requests.length}\n${JSON.stringify(events.filter((e) => e.channel !== 'agent.event').slice(-6))}`)
    })
    // The model saw the cut call answered, as an error, before the new prompt.
    const last = JSON.stringify(world.server.requests.at(-1)?.body['messages'])
    expect(last).toContain('toolu_cut')
    expect(last).toContain('go on')
  }, 120_000)
})
