import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { smallDiskEach, smallDiskRefusal } from '../../../test/support/full-disk'
import { skippedUnless } from '../../../test/support/sandbox-scratch'
import type { Message } from '../services/model/types'
import { loadTranscript, TranscriptWriter, transcriptPath } from './transcript'
import { TranscriptFile, type TranscriptSaveReport } from './transcript-file'

// A full disk, for real: a small tmpfs filled to the last page, so writes fail with the kernel's
// ENOSPC and tear mid-line as they would on a full home folder.
const refusal = smallDiskRefusal()

const disk = smallDiskEach(256 * 1024, refusal)

/** A message of about `size` characters: big enough to cross the transcript's last page. */
const said = (text: string, size = 6000): Message => ({ role: 'user', content: [{ type: 'text', text: `${text} ${'x'.repeat(size)}` }] })

describe('a transcript on a full disk', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('never leaves a torn line: a write that fails is taken back whole', refusal), async () => {
    const path = transcriptPath(disk.root, '/work/app', 's1')
    const writer = TranscriptWriter.create(path, { sessionId: 's1', projectPath: '/work/app' })
    writer.appendMessage(said('first', 10))
    const before = readFileSync(path, 'utf8')
    disk.fill()
    // The line is bigger than what is left of the file's last page: the kernel writes part of it, then ENOSPC.
    expect(() => writer.appendMessage(said('second'))).toThrow(/ENOSPC/)
    expect(readFileSync(path, 'utf8')).toBe(before)
    disk.free()
    writer.appendMessage(said('third', 10))
    const loaded = await loadTranscript(path)
    expect(loaded).toMatchObject({ repaired: false, skipped: [] })
    expect(loaded!.messages.map(firstWord)).toEqual(['first', 'third'])
  })

  it.skipIf(refusal !== undefined)(skippedUnless('holds the lines it could not write, says so once, and writes them in order when there is room again', refusal), async () => {
    const path = transcriptPath(disk.root, '/work/app', 's2')
    const reports: TranscriptSaveReport[] = []
    const file = new TranscriptFile(path, { sessionId: 's2', projectPath: '/work/app' }, false, (report) => reports.push(report))
    file.appendMessage(said('one', 10))
    disk.fill()
    file.appendMessage(said('two'))
    file.appendMessage(said('three'))
    file.setTitle('Full')
    expect(reports).toEqual([{ kind: 'failing', path, error: expect.stringMatching(/ENOSPC/), held: 1 }])
    // On disk: the lines that were written, each whole.
    expect((await loadTranscript(path))!.messages.map(firstWord)).toEqual(['one'])
    expect((await loadTranscript(path))!.skipped).toEqual([])

    disk.free()
    file.appendMessage(said('four', 10))
    expect(reports.slice(1)).toEqual([{ kind: 'saved', path, written: 4 }])
    const loaded = await loadTranscript(path)
    expect(loaded).toMatchObject({ title: 'Full', repaired: false, skipped: [] })
    expect(loaded!.messages.map(firstWord)).toEqual(['one', 'two', 'three', 'four'])
  })

  it.skipIf(refusal !== undefined)(skippedUnless('a transcript whose header cannot be written is held the same way, and closing says what was lost', refusal), async () => {
    disk.fill()
    // A folder needs no data page on tmpfs; a file's first line does.
    const path = transcriptPath(join(disk.root, 'home'), '/work/app', 's3')
    const reports: TranscriptSaveReport[] = []
    const file = new TranscriptFile(path, { sessionId: 's3', projectPath: '/work/app' }, false, (report) => reports.push(report))
    file.appendMessage(said('one'))
    expect(reports.map((report) => report.kind)).toEqual(['failing'])
    file.appendMessage(said('two'))
    expect(reports.map((report) => report.kind)).toEqual(['failing'])
    expect(file.close()).toEqual({ kind: 'lost', path, error: expect.stringMatching(/ENOSPC/), lost: 2 })
    expect(reports.map((report) => report.kind)).toEqual(['failing', 'lost'])
    // No part of a header was left behind: a later session of that id starts a clean file.
    expect(readFileSync(path, 'utf8')).toBe('')
  })

  it.skipIf(refusal !== undefined)(skippedUnless('caps what waits in memory: past the cap saving stops for good, the file keeps a prefix without a gap, and closing counts what was lost', refusal), async () => {
    const path = transcriptPath(disk.root, '/work/app', 's4')
    const reports: TranscriptSaveReport[] = []
    // Room for about two of the 6000-character messages.
    const file = new TranscriptFile(path, { sessionId: 's4', projectPath: '/work/app' }, false, (report) => reports.push(report), { holdLimitBytes: 13_000 })
    file.appendMessage(said('one', 10))
    disk.fill()
    file.appendMessage(said('two'))
    file.appendMessage(said('three'))
    file.appendMessage(said('four'))
    file.appendMessage(said('five', 10))
    expect(reports).toEqual([
      { kind: 'failing', path, error: expect.stringMatching(/ENOSPC/), held: 1 },
      { kind: 'capped', path, error: expect.stringMatching(/ENOSPC/), held: 2, limitBytes: 13_000 },
    ])
    // The disk takes writes again: the held prefix goes to disk, nothing after the gap does.
    disk.free()
    file.appendMessage(said('six', 10))
    expect(reports).toHaveLength(2)
    expect(file.close()).toEqual({ kind: 'lost', path, error: expect.stringMatching(/ENOSPC/), lost: 3 })
    const loaded = await loadTranscript(path)
    expect(loaded).toMatchObject({ repaired: false, skipped: [] })
    expect(loaded!.messages.map(firstWord)).toEqual(['one', 'two', 'three'])
  })

  it.skipIf(refusal !== undefined)(skippedUnless('counts the cap in bytes as they go to disk, not in characters', refusal), () => {
    const path = transcriptPath(disk.root, '/work/app', 's5')
    const reports: TranscriptSaveReport[] = []
    const file = new TranscriptFile(path, { sessionId: 's5', projectPath: '/work/app' }, false, (report) => reports.push(report), { holdLimitBytes: 13_000 })
    file.appendMessage(said('one', 10))
    disk.fill()
    // 3,000 characters of two bytes each: two lines reach the cap, as two 6,000-character ones do.
    const accented = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text: `${text} ${'é'.repeat(3000)}` }] })
    for (const word of ['two', 'three', 'four']) file.appendMessage(accented(word))
    expect(reports.map((report) => report.kind)).toEqual(['failing', 'capped'])
    expect(reports[1]).toMatchObject({ held: 2 })
    file.close()
  })
})

function firstWord(message: Message): string {
  const block = (message.content as Array<{ type: string; text?: string }>)[0]!
  return block.text!.split(' ')[0]!
}
