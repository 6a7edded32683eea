import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../test/model-server'
import { spawnHost } from '../../test/support/remote-host'
import { connectRemoteHost } from '../main/host/remote/client'
import { createModelRelay } from '../main/services/model/relay'
import { SOUS_VERSION } from '../main/host/version'
import type { AgentEvent } from '../shared/protocol/agent-event'

let dir: string
let server: ModelServer | undefined
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-daemon-'))
})
afterEach(async () => {
  await server?.close()
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

async function connect(env: Record<string, string>) {
  const child = spawnHost(['--unattended', '--permission-mode', 'bypassPermissions'], env)
  const connected = await connectRemoteHost({ input: child.stdout, output: child.stdin, version: SOUS_VERSION, relay: createModelRelay({ env: { ANTHROPIC_API_KEY: 'LOCAL', ANTHROPIC_BASE_URL: server!.url } }) })
  if (!connected.ok) throw new Error(connected.message)
  return { child, client: connected.client }
}

describe('the long-lived host behind sous host --stdio', () => {
  it('ends a turn nobody came back for after the grace period, and the session resumes with the cut tool call marked interrupted', async () => {
    const project = await mkdtemp(join(dir, 'project-'))
    const env = { HOME: dir, SOUS_HOME: join(dir, 'home'), SOUS_HOST_GRACE_MS: '1500' }
    server = await startModelServer({ scenario: [toolUseReply('Bash', { command: 'sleep 30' }, { id: 'toolu_long' }), textReply('never')] })
    const first = await connect(env)
    const created = await first.client.invoke('session.create', { projectPath: project })
    if (!created.ok) throw new Error(created.error.message)
    const { sessionId } = created.value
    const started = new Promise<void>((resolve) =>
      first.client.subscribe((channel, payload) => {
        if (channel === 'agent.event' && (payload as AgentEvent).type === 'tool_use_start') resolve()
      }),
    )
    expect((await first.client.invoke('session.prompt', { sessionId, text: 'wait' })).ok).toBe(true)
    await started
    // The pipe dies (as when ssh is killed); nobody reconnects.
    first.child.kill('SIGKILL')
    await new Promise((resolve) => setTimeout(resolve, 4000))
    server.setScenario([textReply('Back again.')])
    const second = await connect(env)
    const resumed = await second.client.invoke('session.resume', { sessionId })
    expect(resumed.ok, JSON.stringify(resumed)).toBe(true)
    const history = await second.client.invoke('session.history', { sessionId })
    if (!history.ok) throw new Error(history.error.message)
    const cut = history.value.events.find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_long')
    expect(cut).toMatchObject({ isError: true, content: expect.stringContaining('interrupted') })
    second.client.close()
    second.child.kill()
  }, 60_000)
})
