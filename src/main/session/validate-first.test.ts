import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import type { EventPayload } from '../../shared/ipc/contract'
import { createEventHub, type EventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message, ToolResultBlock } from '../services/model/types'
import { createSessionRuntime, type SessionRuntime } from '../runtime/runtime'

// Approval only for calls that can run: an Edit that cannot apply fails before anyone is asked,
// and one that can is shown as its real diff.
const server = useModelServer()

let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let asked: Array<EventPayload<'approval.requested'>>

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-validate-'))
  project = join(base, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'app.txt'), 'one\ntwo\ntwo\n')
  hub = createEventHub()
  asked = []
  hub.subscribe((channel, payload) => {
    if (channel !== 'approval.requested') return
    const request = payload as EventPayload<'approval.requested'>
    asked.push(request)
    // The user approves whatever is shown.
    const queue = [...runtime.approvals.queues()].find((entry) => entry.sessionId === request.sessionId)?.queue
    queue?.resolve(request.id, { kind: 'allow_once' })
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({ home: join(base, 'sous-home'), env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'home') }, hub, pty, permissionMode: 'default', answerer: 'interactive', userHome: join(base, 'home'), preferences: () => ({ autoMemory: false }) })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

function resultOf(index: number, id: string): ToolResultBlock | undefined {
  const messages = server.requests[index]!.body['messages'] as Message[]
  const content = messages.at(-1)!.content
  return Array.isArray(content) ? (content.find((block) => block.type === 'tool_result' && block.tool_use_id === id) as ToolResultBlock | undefined) : undefined
}

describe('validation before approval', () => {
  it('asks only about the Edit that can run, with its diff', async () => {
    const file = join(project, 'app.txt')
    server.setScenario([
      toolUseReply('Edit', { file_path: file, old_string: 'one', new_string: '1' }, { id: 'toolu_unread' }),
      toolUseReply('Read', { file_path: file }, { id: 'toolu_read' }),
      toolUseReply('Edit', { file_path: file, old_string: 'two', new_string: '2' }, { id: 'toolu_twice' }),
      toolUseReply('Edit', { file_path: file, old_string: 'three', new_string: '3' }, { id: 'toolu_missing' }),
      toolUseReply('Edit', { file_path: file, old_string: 'one', new_string: '1' }, { id: 'toolu_good' }),
      textReply('Done.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    const result = await runtime.sessions.run(sessionId, 'Edit it')
    expect(result.reason).toBe('completed')
    expect(resultOf(1, 'toolu_unread')).toMatchObject({ is_error: true, content: expect.stringMatching(/read/i) })
    expect(resultOf(3, 'toolu_twice')).toMatchObject({ is_error: true, content: expect.stringContaining('Found 2 matches') })
    expect(resultOf(4, 'toolu_missing')).toMatchObject({ is_error: true, content: expect.stringContaining('not found') })
    expect(asked.map((request) => request.toolUseId)).toEqual(['toolu_good'])
    expect(asked[0]?.preview).toEqual({ kind: 'diff', filePath: file, before: 'one\ntwo\ntwo\n', after: '1\ntwo\ntwo\n' })
    expect(readFileSync(file, 'utf8')).toBe('1\ntwo\ntwo\n')
  })
})
