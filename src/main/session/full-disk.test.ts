import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { createTestRuntime } from '../../../test/support/agents'
import { mountSmallDisk, smallDiskRefusal, type SmallDisk } from '../../../test/support/full-disk'
import { skippedUnless } from '../../../test/support/sandbox-scratch'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import type { SessionRuntime } from '../runtime/runtime'
import { loadTranscript, transcriptPath } from '../store/transcript'

// `$SOUS_HOME` on a small real tmpfs, filled mid-session: the turn goes on, the user hears once
// which file and why, every tool_use still gets its tool_result, and the transcript on disk never
// holds a torn line. When there is room again, what waited is written in order.
const refusal = smallDiskRefusal()
const server = useModelServer()

let disk: SmallDisk
let base: string
let project: string
let runtime: SessionRuntime
let pty: NodePtyService
let events: AgentEvent[]
beforeEach(() => {
  if (refusal !== undefined) return
  disk = mountSmallDisk(512 * 1024)
  base = realpathSync(mkdtempSync(join(tmpdir(), 'sous-full-disk-')))
  project = join(base, 'project')
  mkdirSync(join(base, 'user'), { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'README.md'), '# Readme\n')
  const hub = createEventHub()
  events = []
  hub.subscribe((channel, payload) => {
    if (channel === 'agent.event') events.push(payload as AgentEvent)
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(disk.root, 'sous-home'), userHome: join(base, 'user'), hub, pty }, { answerer: 'unattended', permissionMode: 'bypassPermissions' })
})
afterEach(async () => {
  if (refusal !== undefined) return
  await runtime.dispose()
  await pty.dispose()
  disk.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** A prompt longer than a page: its line cannot fit in what is left of the transcript's last page. */
const long = (text: string) => `${text} ${'.'.repeat(5000)}`

const storageNotices = () => events.filter((event): event is Extract<AgentEvent, { type: 'notice' }> => event.type === 'notice' && event.topic === 'storage')

describe('a session whose transcript the disk refuses', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('goes on with its turn, says so once, and writes what waited when there is room again', refusal), async () => {
    const { sessionId } = await runtime.sessions.create(project)
    const path = transcriptPath(join(disk.root, 'sous-home'), project, sessionId)
    server.setScenario([textReply('Hi.'), toolUseReply('Read', { file_path: join(project, 'README.md') }, { id: 'read-1' }), textReply('It is a readme.'), textReply('Still here.')])
    expect((await runtime.sessions.run(sessionId, 'hello')).reason).toBe('completed')

    disk.fill()
    const full = await runtime.sessions.run(sessionId, long('read the readme'))
    expect(full.reason).toBe('completed')
    expect(events.find((event) => event.type === 'tool_end' && event.toolUseId === 'read-1')).toMatchObject({ isError: false })
    expect(storageNotices()).toEqual([expect.objectContaining({ level: 'error', sessionId, agentId: 'main', message: expect.stringContaining(path) })])
    expect(storageNotices()[0]!.message).toMatch(/ENOSPC/)
    // On disk: the first turn, whole; no torn line.
    const meanwhile = await loadTranscript(path)
    expect(meanwhile).toMatchObject({ skipped: [], repaired: false })
    expect(meanwhile!.messages).toHaveLength(2)

    disk.free()
    expect((await runtime.sessions.run(sessionId, 'and now?')).reason).toBe('completed')
    expect(storageNotices().map((notice) => notice.level)).toEqual(['error', 'info'])
    const after = await loadTranscript(path)
    expect(after).toMatchObject({ skipped: [], repaired: false })
    // The whole conversation, the call and its result included, in order.
    expect(after!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
    expect(JSON.stringify(after!.messages)).toContain('"tool_use_id":"read-1"')
    expect(after!.events.filter((event) => event.type === 'turn_end')).toHaveLength(3)
  })

  it.skipIf(refusal !== undefined)(skippedUnless('closed while the disk is still full, says what it could not save; the stored part resumes whole', refusal), async () => {
    const { sessionId } = await runtime.sessions.create(project)
    const path = transcriptPath(join(disk.root, 'sous-home'), project, sessionId)
    server.setScenario([textReply('Hi.'), textReply('Lost, I fear.'), textReply('Back.')])
    await runtime.sessions.run(sessionId, 'hello')
    disk.fill()
    expect((await runtime.sessions.run(sessionId, long('this will not be saved'))).reason).toBe('completed')
    await runtime.sessions.close(sessionId)
    // The transcript's two notices; the checkpoints, on the same full disk, say once that they are not saved.
    const aboutTranscript = storageNotices().filter((notice) => notice.message.includes(path))
    expect(aboutTranscript.map((notice) => notice.level)).toEqual(['error', 'error'])
    expect(storageNotices().filter((notice) => !notice.message.includes(path))).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^Checkpoints are not being saved/) })])
    expect(aboutTranscript[1]!.message).toMatch(new RegExp(`lost its last \\d+ entries: they could not be written to ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))

    disk.free()
    await runtime.sessions.resume(sessionId)
    expect((await runtime.sessions.run(sessionId, 'are you there?')).reason).toBe('completed')
    const stored = await loadTranscript(path)
    expect(stored).toMatchObject({ skipped: [] })
    expect(stored!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })
})
