import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import type { EventPayload } from '../../shared/ipc/contract'
import { createEventHub, type EventHub } from '../base/event-hub'
import { sandboxScratch, sandboxUnavailable, skippedUnless } from '../../../test/support/sandbox-scratch'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message, ToolResultBlock } from '../services/model/types'
import { type SessionRuntime } from './runtime'
import { createTestRuntime } from '../../../test/support/agents'
import { useModelServer } from '../../../test/model-server/vitest'

// The runtime every host uses, end to end: real model service against the scripted server, real
// tools on a real PTY, the real permission gate and, where it works here, the real OS sandbox.
const server = useModelServer()
// Known while the file is collected, so the sandboxed test's title can say why it is skipped.
const unavailable = await sandboxUnavailable()

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime

beforeEach(() => {
  // Outside the temp dirs: the sandbox makes those writable, and the project must be the only place.
  base = sandboxScratch('.sous-runtime-test-')
  project = join(base, 'project')
  mkdirSync(join(project, '.claude'), { recursive: true })
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }))
  // The user trusted the project's settings (the trust step), so its allow rule counts.
  expect(grantTrust(project, join(base, 'sous-home'), trustStatus(project, join(base, 'sous-home')).fingerprint).ok).toBe(true)
  hub = createEventHub()
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(base, 'sous-home'), userHome: join(base, 'home'), hub, pty })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

function lastToolResult(): ToolResultBlock | undefined {
  const messages = server.requests.at(-1)?.body['messages'] as Message[] | undefined
  const content = messages?.at(-1)?.content
  return Array.isArray(content) ? (content.find((block) => block.type === 'tool_result') as ToolResultBlock | undefined) : undefined
}

describe('session runtime', () => {
  it('names a model in every request, even with no ANTHROPIC_MODEL', async () => {
    server.setScenario([textReply('Hello.')])
    const { sessionId } = await runtime.sessions.create(project)
    const result = await runtime.sessions.run(sessionId, 'Hi')
    expect(result.reason).toBe('completed')
    expect(server.requests[0]?.model).not.toBe('')
    expect(server.failures).toEqual([])
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('a sandboxed command reaching a new host asks in the session that runs it; a rejection reaches the model', unavailable), async () => {
    server.setScenario([
      toolUseReply('Bash', { command: 'curl -s -m 20 -o /dev/null -w "%{http_code}" http://example.invalid/ || echo refused' }, { id: 'toolu_net' }),
      textReply('The host was refused.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    const asked = new Promise<EventPayload<'approval.requested'>>((resolve) => {
      hub.subscribe((channel, payload) => {
        if (channel === 'approval.requested') resolve(payload as EventPayload<'approval.requested'>)
      })
    })
    const turn = runtime.sessions.run(sessionId, 'Fetch it')
    const request = await Promise.race([asked, turn.then(() => undefined)])
    // The sandbox works here, so no ask means the network check regressed: fail, saying what ran.
    if (!request) expect.fail(`no approval was asked for example.invalid; the command's result: ${JSON.stringify(lastToolResult()).slice(0, 400)}`)
    expect(request).toMatchObject({ sessionId, toolUseId: 'toolu_net', toolName: 'Bash', preview: { kind: 'url', domain: 'example.invalid' }, suggestions: [] })
    const queue = [...runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)?.queue
    queue?.resolve(request.id, { kind: 'reject', message: 'no network today' })
    const result = await turn
    expect(result.reason).toBe('completed')
    expect(JSON.stringify(lastToolResult())).toMatch(/network-outbound example\.invalid:80 \(user denied\)/)
    expect(server.failures).toEqual([])
  })
})
