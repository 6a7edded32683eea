import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Message } from '../services/model/types'
import { listSessions } from './session-index'
import { loadTranscript, TranscriptWriter, transcriptPath } from './transcript'
import { INTERRUPTED_RESULT, repairMessages } from './transcript-repair'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-transcript-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const ask: Message = { role: 'user', content: [{ type: 'text', text: 'list files' }] }
const call: Message = {
  role: 'assistant',
  content: [
    { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
    { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/x' } },
  ],
}

describe('transcripts', () => {
  it('writes under projects/<slug>/sessions and reads back what was appended', async () => {
    const path = transcriptPath(home, '/work/app', 's1')
    expect(path).toMatch(new RegExp(`^${join(home, 'projects')}/-work-app-[0-9a-f]{12}/sessions/s1\\.jsonl$`))
    const writer = TranscriptWriter.create(path, { sessionId: 's1', projectPath: '/work/app' })
    writer.appendMessage(ask)
    writer.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] })
    writer.appendEvent({ type: 'turn_end', reason: 'completed', sessionId: 's1', agentId: 'main' })
    writer.setTitle('Listing')
    const loaded = await loadTranscript(path)
    expect(loaded).toMatchObject({ sessionId: 's1', projectPath: '/work/app', title: 'Listing', repaired: false })
    expect(loaded!.messages).toHaveLength(2)
    expect(loaded!.events).toEqual([{ type: 'turn_end', reason: 'completed', sessionId: 's1', agentId: 'main' }])
  })

  it('ignores a torn last line and answers orphan tool calls after a crash', async () => {
    const path = transcriptPath(home, '/work/app', 's2')
    const writer = TranscriptWriter.create(path, { sessionId: 's2', projectPath: '/work/app' })
    writer.appendMessage(ask)
    writer.appendMessage(call)
    await appendFile(path, '{"type":"message","at":"2026-01-01","message":{"role":"user","cont')
    const loaded = await loadTranscript(path)
    expect(loaded!.repaired).toBe(true)
    expect(loaded!.messages).toHaveLength(3)
    expect(loaded!.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: INTERRUPTED_RESULT, is_error: true },
        { type: 'tool_result', tool_use_id: 't2', content: INTERRUPTED_RESULT, is_error: true },
      ],
    })
  })

  it('keeps what a resumed session appends after a torn last line, and leaves out lines that are not entries', async () => {
    const path = transcriptPath(home, '/work/app', 's1')
    TranscriptWriter.create(path, { sessionId: 's1', projectPath: '/work/app' }).appendMessage(ask)
    // A crash mid-write: half a line, no newline.
    await appendFile(path, '{"type":"message","at":"2025-01-01T00:00:00Z","mess')
    const resumed = TranscriptWriter.open(path)
    resumed.appendEvent({ type: 'notice', level: 'info', message: 'kept', sessionId: 's1', agentId: 'main' })
    await appendFile(path, '{"type":"message","at":"2025-01-01T00:00:00Z"}\n{"type":"event","event":null}\n')
    resumed.setTitle('Still here')
    const loaded = await loadTranscript(path)
    expect(loaded).toMatchObject({ title: 'Still here', repaired: true })
    expect(loaded!.messages).toEqual([ask])
    expect(loaded!.events).toEqual([{ type: 'notice', level: 'info', message: 'kept', sessionId: 's1', agentId: 'main' }])
  })

  it("lists one project's sessions only, even for paths that read alike", async () => {
    TranscriptWriter.create(transcriptPath(home, '/work/b-c', 'mine'), { sessionId: 'mine', projectPath: '/work/b-c' }).appendMessage(ask)
    TranscriptWriter.create(transcriptPath(home, '/work/b/c', 'theirs'), { sessionId: 'theirs', projectPath: '/work/b/c' }).appendMessage(ask)
    expect((await listSessions(home, '/work/b-c')).map((row) => row.sessionId)).toEqual(['mine'])
    expect((await listSessions(home)).map((row) => row.sessionId).sort()).toEqual(['mine', 'theirs'])
  })

  it('returns undefined for a missing file or one without a header', async () => {
    expect(await loadTranscript(join(home, 'nope.jsonl'))).toBeUndefined()
  })

  it('is readable by the user alone: file 0600, its folders 0700 (tightened when they were open)', () => {
    const path = transcriptPath(home, '/work/app', 's3')
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 })
    chmodSync(dirname(path), 0o755)
    chmodSync(dirname(dirname(path)), 0o755)
    TranscriptWriter.create(path, { sessionId: 's3', projectPath: '/work/app' }).appendMessage(ask)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700)
    expect(statSync(dirname(dirname(path))).mode & 0o777).toBe(0o700)
  })

  it('keeps projects whose paths read the same apart, and checks the stored project path on load', async () => {
    TranscriptWriter.create(transcriptPath(home, '/a-b', 'dash'), { sessionId: 'dash', projectPath: '/a-b' }).appendMessage(ask)
    TranscriptWriter.create(transcriptPath(home, '/a/b', 'slash'), { sessionId: 'slash', projectPath: '/a/b' }).appendMessage(ask)
    // A transcript of another project dropped into this project's folder is not this project's.
    TranscriptWriter.create(join(dirname(transcriptPath(home, '/a-b', 'x')), 'planted.jsonl'), { sessionId: 'planted', projectPath: '/elsewhere' }).appendMessage(ask)
    expect((await listSessions(home, '/a-b')).map((s) => s.sessionId)).toEqual(['dash'])
    expect((await listSessions(home, '/a/b')).map((s) => s.sessionId)).toEqual(['slash'])
  })

  it('refuses to make a path of something that is not a session id', () => {
    for (const id of ['../x', 'a/b', '', '.', 'a b', 'x'.repeat(201)]) expect(() => transcriptPath(home, '/p', id)).toThrow(/not a session id/)
  })
})

describe('repairMessages', () => {
  it('completes a partly answered call, results first, and drops answers to nothing', () => {
    const partial: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'next prompt' },
        { type: 'tool_result', tool_use_id: 't1', content: 'a b' },
        { type: 'tool_result', tool_use_id: 'ghost', content: '?' },
      ],
    }
    const { messages, repaired } = repairMessages([ask, call, partial])
    expect(repaired).toBe(true)
    const blocks = messages[2]!.content as Array<{ type: string; tool_use_id?: string }>
    expect(blocks.map((block) => block.tool_use_id ?? block.type)).toEqual(['t1', 't2', 'text'])
  })

  it('leaves a valid conversation alone', () => {
    const answered: Message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '' }, { type: 'tool_result', tool_use_id: 't2', content: '' }] }
    const result = repairMessages([ask, call, answered])
    expect(result.repaired).toBe(false)
    expect(result.messages).toEqual([ask, call, answered])
  })
})
