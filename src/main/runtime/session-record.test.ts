import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { createTestRuntime } from '../../../test/support/agents'
import { sandboxScratch } from '../../../test/support/sandbox-scratch'
import type { EventPayload } from '../../shared/ipc/contract'
import { createEventHub, type EventHub } from '../base/event-hub'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { NodePtyService } from '../pty/node-pty-service'
import type { SessionRuntime } from './runtime'

// A session's transcript keeps its hooks and answered approvals (issue 26: a stored session's
// timeline has them), through the real runtime, gate, hook runner and approval queue.
const server = useModelServer()

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime

beforeEach(() => {
  base = sandboxScratch('.sous-record-test-')
  project = join(base, 'project')
  mkdirSync(join(project, '.claude'), { recursive: true })
  const hooks = { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'exit 0' }] }] }
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }))
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

describe('what the transcript records besides the conversation', () => {
  it('keeps each hook run and answered approval, only in the transcript', async () => {
    const file = join(project, 'new.txt')
    server.setScenario([toolUseReply('Write', { file_path: file, content: 'hi\n' }, { id: 'toolu_write' }), textReply('Written.')])
    const { sessionId } = await runtime.sessions.create(project)
    const live: string[] = []
    const asked = new Promise<EventPayload<'approval.requested'>>((resolve) => {
      hub.subscribe((channel, payload) => {
        if (channel === 'agent.event') live.push((payload as { type: string }).type)
        if (channel === 'approval.requested') resolve(payload as EventPayload<'approval.requested'>)
      })
    })
    const turn = runtime.sessions.run(sessionId, 'Write it')
    const request = await asked
    const queue = [...runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'allow_once' })
    expect((await turn).reason).toBe('completed')
    const { events } = await runtime.sessions.history(sessionId)
    expect(events.filter((event) => event.type === 'approval_answered')).toEqual([
      expect.objectContaining({ approvalId: request.id, toolUseId: 'toolu_write', toolName: 'Write', outcome: 'allowed_once', agentId: 'main' }),
    ])
    expect(events.filter((event) => event.type === 'hook_run')).toEqual([expect.objectContaining({ event: 'PreToolUse', matcher: 'Write', command: 'exit 0', exitCode: 0, aboutToolUseId: 'toolu_write' })])
    // Live, the hub carried them on their own channels only: a view hears each once.
    expect(live).not.toContain('hook_run')
    expect(live).not.toContain('approval_answered')
  })
})
