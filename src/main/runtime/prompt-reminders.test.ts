import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message } from '../services/model/types'
import { type SessionRuntime } from './runtime'
import { createTestRuntime } from '../../../test/support/agents'

// Claude Code's reminders with a user turn, through the runtime every host uses: the real model
// service against the scripted server, the real Read tool, the real task store.
const server = useModelServer()

let base: string
let project: string
let pty: NodePtyService
let runtime: SessionRuntime

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-prompt-reminders-'))
  project = join(base, 'project')
  mkdirSync(project, { recursive: true })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(base, 'sous-home'), userHome: join(base, 'home'), hub: createEventHub(), pty })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** The text of the newest user message of request `index` (its own text and its reminders). */
function lastUserText(index: number): string {
  const messages = server.requests[index]?.body['messages'] as Message[]
  const content = messages.at(-1)!.content
  return typeof content === 'string' ? content : content.map((block) => ('text' in block ? block.text : '')).join('\n')
}

/** Every message before the newest of request `index`, as sent. */
function earlier(index: number): string {
  return JSON.stringify((server.requests[index]?.body['messages'] as unknown[]).slice(0, -1)).replaceAll(/,"cache_control":\{[^}]*\}/g, '')
}

describe('reminders with the prompt', () => {
  it('tells the model, with the next prompt and once, which files it read changed since, and that the user switched the mode', async () => {
    const file = join(project, 'notes.txt')
    writeFileSync(file, 'first version\n')
    server.setScenario([
      toolUseReply('Read', { file_path: file }, { id: 'toolu_read' }),
      textReply('Read it.'),
      textReply('Noted.'),
      textReply('Still noted.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    expect((await runtime.sessions.run(sessionId, 'Read notes.txt')).reason).toBe('completed')
    expect(lastUserText(0)).not.toContain('changed since you last read')

    writeFileSync(file, 'second version, longer\n')
    await runtime.sessions.setMode(sessionId, 'bypassPermissions')
    await runtime.sessions.setMode(sessionId, 'acceptEdits')
    expect((await runtime.sessions.run(sessionId, 'Go on')).reason).toBe('completed')
    const second = lastUserText(2)
    expect(second).toContain('Go on')
    expect(second).toMatch(/<system-reminder>\nThese files changed since you last read them[^]*- notes\.txt/)
    // Only the last switch before the prompt is news.
    expect(second).toContain('permission mode to acceptEdits')
    expect(second).not.toContain('bypassPermissions')
    // Reminders ride on the newest message only: what the earlier request sent is sent again unchanged.
    expect(earlier(2).startsWith(earlier(1).slice(0, -1))).toBe(true)

    expect((await runtime.sessions.run(sessionId, 'And now?')).reason).toBe('completed')
    expect(lastUserText(3)).not.toContain('changed since you last read')
    expect(lastUserText(3)).not.toContain('permission mode')
    expect(server.failures).toEqual([])
  })

  it('says nothing when a file was only touched, and names a file deleted since it was read', async () => {
    const kept = join(project, 'kept.txt')
    const gone = join(project, 'gone.txt')
    writeFileSync(kept, 'same bytes\n')
    writeFileSync(gone, 'soon gone\n')
    server.setScenario([
      toolUseReply('Read', { file_path: kept }, { id: 'toolu_1' }),
      toolUseReply('Read', { file_path: gone }, { id: 'toolu_2' }),
      textReply('Read both.'),
      textReply('Ok.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Read both')
    writeFileSync(kept, 'same bytes\n')
    rmSync(gone)
    await runtime.sessions.run(sessionId, 'Next')
    const text = lastUserText(3)
    expect(text).toContain('- gone.txt')
    expect(text).not.toContain('kept.txt')
    expect(server.failures).toEqual([])
  })
})
