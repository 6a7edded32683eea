import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SessionSummary } from '../../shared/ipc/contract'
import { listSessions, loadStoredTranscript } from './session-index'
import { TranscriptWriter, transcriptPath } from './transcript'

// One bad line never breaks the session list: shape-wrong lines are skipped and counted, what can
// be mended is mended, a lost header is rebuilt from the file's name and folder.
let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-damaged-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const at = '2026-03-01T10:00:00.000Z'
const line = (value: unknown) => `${JSON.stringify(value)}\n`

function healthy(sessionId: string, prompt: string): string {
  const path = transcriptPath(home, '/work/app', sessionId)
  const writer = TranscriptWriter.create(path, { sessionId, projectPath: '/work/app', createdAt: at })
  writer.appendMessage({ role: 'user', content: [{ type: 'text', text: prompt }] })
  writer.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] })
  return path
}

describe('damaged transcripts', () => {
  it('skip shape-wrong lines, keep the rest, and count them in the row', async () => {
    const path = healthy('s-bad-lines', 'keep me')
    await appendFile(
      path,
      line({ type: 'message', at, message: { role: 'user' } }) +
        line({ type: 'event', at, event: { type: 'turn_end' } }) +
        line({ type: 'session' }) +
        line({ type: 'title' }) +
        line([1, 2]) +
        line({ type: 'mystery', at }) +
        line({ type: 'message', at, message: { role: 'user', content: [{ type: 'text', text: 'second prompt' }, { type: 'bogus' }, { type: 'tool_result' }] } }) +
        line({ type: 'message', at, message: { role: 'assistant', content: 'plain string reply' } }),
    )
    healthy('s-fine', 'fine one')
    const rows = await listSessions(home)
    expect(rows.map((row) => row.sessionId).sort()).toEqual(['s-bad-lines', 's-fine'])
    for (const row of rows) expect(SessionSummary.safeParse(row).success).toBe(true)
    const bad = rows.find((row) => row.sessionId === 's-bad-lines')!
    expect(bad).toMatchObject({ title: 'keep me', projectPath: '/work/app', skippedLines: 6 })
    expect(rows.find((row) => row.sessionId === 's-fine')!.skippedLines).toBeUndefined()
    const loaded = await loadStoredTranscript(path)
    expect(loaded!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'keep me' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      // The block the API would refuse is gone; the message stays.
      { role: 'user', content: [{ type: 'text', text: 'second prompt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'plain string reply' }] },
    ])
    expect(loaded!.skipped.map((s) => s.line)).toEqual([4, 5, 6, 7, 8, 9])
    expect(loaded!.repaired).toBe(true)
  })

  it('rebuild a lost header from the file name and the folder the project owns', async () => {
    healthy('s-neighbour', 'neighbour')
    const orphan = transcriptPath(home, '/work/app', 's-headless')
    await writeFile(orphan, `{"type":"session","sessionId":\n${line({ type: 'message', at, message: { role: 'user', content: 'where is my header' } })}`)
    const rows = await listSessions(home)
    expect(rows.find((row) => row.sessionId === 's-headless')).toMatchObject({ projectPath: '/work/app', title: 'where is my header', createdAt: at, skippedLines: 1 })
    expect((await listSessions(home, '/work/app')).map((row) => row.sessionId).sort()).toEqual(['s-headless', 's-neighbour'])
    expect(await loadStoredTranscript(orphan)).toMatchObject({ sessionId: 's-headless', projectPath: '/work/app' })
  })

  it('leave out a file nothing can be read from, without failing the list', async () => {
    healthy('s-good', 'good')
    const garbage = join(home, 'projects', '-elsewhere', 'sessions', 'junk.jsonl')
    await import('node:fs/promises').then((fs) => fs.mkdir(join(home, 'projects', '-elsewhere', 'sessions'), { recursive: true }))
    await writeFile(garbage, '\u0000\u0001 not json at all\n{"type":"message"}\n')
    expect((await listSessions(home)).map((row) => row.sessionId)).toEqual(['s-good'])
  })
})
