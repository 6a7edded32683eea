import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Message } from '../services/model/types'
import { legacyProjectSlug } from './legacy-sessions'
import { findTranscriptFile, listSessions } from './session-index'
import { loadTranscript, TranscriptWriter, transcriptPath } from './transcript'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-legacy-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const ask: Message = { role: 'user', content: [{ type: 'text', text: 'hello' }] }

/** A transcript where an earlier version of Sous put it: `projects/<path with - for non-alphanumerics>/sessions`. */
function writeLegacy(projectPath: string, sessionId: string): string {
  const file = join(home, 'projects', legacyProjectSlug(projectPath), 'sessions', `${sessionId}.jsonl`)
  TranscriptWriter.create(file, { sessionId, projectPath }).appendMessage(ask)
  return file
}

describe('sessions stored by earlier versions', () => {
  it('are listed with their project and moved into its current folder, whole', async () => {
    const old = writeLegacy('/work/app', 'old-one')
    const rows = await listSessions(home, '/work/app')
    expect(rows.map((row) => row.sessionId)).toEqual(['old-one'])
    expect(existsSync(old)).toBe(false)
    const moved = await loadTranscript(transcriptPath(home, '/work/app', 'old-one'))
    expect(moved?.messages).toEqual([ask])
  })

  it('move only into the project their own header names, when two paths shared the old folder', async () => {
    writeLegacy('/a-b', 'dash')
    writeLegacy('/a/b', 'slash')
    expect((await listSessions(home, '/a-b')).map((row) => row.sessionId)).toEqual(['dash'])
    expect((await listSessions(home, '/a/b')).map((row) => row.sessionId)).toEqual(['slash'])
  })

  it('are found by id (resume, export) and moved on the way', async () => {
    writeLegacy('/work/app', 'by-id')
    const file = await findTranscriptFile(home, 'by-id')
    expect(file).toBe(transcriptPath(home, '/work/app', 'by-id'))
  })

  it('never overwrite a session of the same id already in the current folder', async () => {
    const old = writeLegacy('/work/app', 'twice')
    TranscriptWriter.create(transcriptPath(home, '/work/app', 'twice'), { sessionId: 'twice', projectPath: '/work/app' })
    await listSessions(home, '/work/app')
    expect(existsSync(old)).toBe(true)
    expect((await loadTranscript(transcriptPath(home, '/work/app', 'twice')))?.messages).toEqual([])
  })
})
