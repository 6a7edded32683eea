import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../../../test/model-server'
import { spawnHost } from '../../../../test/support/remote-host'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createModelRelay } from '../../services/model/relay'
import { SOUS_VERSION } from '../version'
import { connectRemoteHost } from './client'

let dir: string
let server: ModelServer | undefined
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-remote-'))
})
afterEach(async () => {
  await server?.close()
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

/** The remote side's environment: its own home, and a key that must never be used. */
function hostEnv(): Record<string, string> {
  return { HOME: dir, SOUS_HOME: join(dir, 'remote-home'), ANTHROPIC_API_KEY: 'REMOTE-KEY-NEVER-USED' }
}

describe('sous host --stdio (a real process)', () => {
  it('runs a session whose model requests come back over the pipe and leave with the local key', async () => {
    const project = await mkdtemp(join(dir, 'project-'))
    server = await startModelServer({ scenario: [toolUseReply('Write', { file_path: join(project, 'hello.txt'), content: 'from the remote\n' }), textReply('Written.')] })
    const child = spawnHost(['--no-daemon'], hostEnv())
    const problems: string[] = []
    const connected = await connectRemoteHost({
      input: child.stdout,
      output: child.stdin,
      version: SOUS_VERSION,
      relay: createModelRelay({ env: { ANTHROPIC_API_KEY: 'LOCAL-KEY', ANTHROPIC_BASE_URL: server.url } }),
      onProblem: (message) => problems.push(message),
    })
    expect(connected.ok).toBe(true)
    if (!connected.ok) return
    const client = connected.client
    expect(client.hello).toMatchObject({ role: 'host', version: SOUS_VERSION, model: 'relay' })
    const events: AgentEvent[] = []
    const ended = new Promise<void>((resolve) =>
      client.subscribe((channel, payload) => {
        if (channel === 'approval.requested') void client.invoke('approval.reply', { id: (payload as { id: string }).id, decision: 'allow_once' })
        if (channel !== 'agent.event') return
        events.push(payload as AgentEvent)
        if ((payload as AgentEvent).type === 'turn_end') resolve()
      }),
    )
    const created = await client.invoke('session.create', { projectPath: project })
    expect(created.ok).toBe(true)
    if (!created.ok) return
    expect((await client.invoke('session.prompt', { sessionId: created.value.sessionId, text: 'write hello' })).ok).toBe(true)
    await ended
    expect(await readFile(join(project, 'hello.txt'), 'utf8')).toBe('from the remote\n')
    expect(events.find((event) => event.type === 'turn_end')).toMatchObject({ reason: 'completed' })
    expect(server.requests.length).toBeGreaterThanOrEqual(2)
    for (const request of server.requests) {
      expect(request.headers['x-api-key']).toBe('LOCAL-KEY')
      expect(JSON.stringify(request.headers)).not.toContain('REMOTE-KEY')
      expect(JSON.stringify(request.headers)).not.toContain('relayed-by')
    }
    // A frame that does not parse is reported back and dropped; the connection stays.
    child.stdin.write('{not json\n')
    child.stdin.write(`${JSON.stringify({ t: 'req', id: 'x', channel: 'app.info', payload: 5, extra: new Array(3) })}\n`)
    const info = await client.invoke('app.info', {})
    expect(info).toMatchObject({ ok: true, value: { transport: 'stdio', version: SOUS_VERSION } })
    await expect.poll(() => problems.join('\n')).toContain('could not read a frame of ours: The frame is not valid JSON.')
    client.close()
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0)
  }, 60_000)

  it('refuses a client of another version with what to install', async () => {
    const child = spawnHost(['--no-daemon'], hostEnv())
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('"hello"') && !out.includes('sent')) {
        out += 'sent'
        child.stdin.write(`${JSON.stringify({ t: 'hello', role: 'client', protocol: 1, version: '0.0.1' })}\n`)
      }
    })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(3)
    expect(out).toContain(`"t":"refused"`)
    expect(out).toContain(`it is Sous 0.0.1, this is Sous ${SOUS_VERSION}`)
    expect(out).toContain(`npm i -g sous@${SOUS_VERSION}`)
  }, 60_000)
})
