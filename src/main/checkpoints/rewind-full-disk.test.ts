import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mountSmallDisk, smallDiskRefusal, type SmallDisk } from '../../../test/support/full-disk'
import { skippedUnless } from '../../../test/support/sandbox-scratch'
import type { Message } from '../services/model/types'
import { sessionsDir, TranscriptWriter, transcriptPath } from '../store/transcript'
import { forkAt } from './conversation'
import { CheckpointRecorder } from './recorder'
import { rewind } from './rewind'

// A small tmpfs filled to its last page (the kernel's own ENOSPC): the project on it, for a rewind
// whose files cannot be written; $SOUS_HOME on it, for a fork that cannot be.
const refusal = smallDiskRefusal()

let disk: SmallDisk
let project: string
let home: string
let elsewhere: string
/** What a.txt held at the checkpoint: more than the page a deleted file gives back. */
const BEFORE = `before ${'x'.repeat(20_000)}\n`
beforeEach(() => {
  if (refusal !== undefined) return
  disk = mountSmallDisk(512 * 1024)
  elsewhere = mkdtempSync(join(tmpdir(), 'sous-rewind-full-'))
})
afterEach(() => {
  if (refusal !== undefined) return
  disk.dispose()
  rmSync(elsewhere, { recursive: true, force: true })
})

/** The project (with a.txt) and $SOUS_HOME: `full` is on the small disk, the other on the ordinary one. */
function place(full: 'project' | 'home'): void {
  project = join(full === 'project' ? disk.root : elsewhere, 'project')
  home = join(full === 'home' ? disk.root : elsewhere, 'home')
  mkdirSync(project)
  writeFileSync(join(project, 'a.txt'), BEFORE)
}

const said = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })

/** A session with one call's checkpoint: the call changed a.txt, made new.txt, and the conversation went on. */
async function session(): Promise<{ checkpointId: string; transcript: string }> {
  const transcript = transcriptPath(home, project, 's1')
  const writer = TranscriptWriter.create(transcript, { sessionId: 's1', projectPath: project })
  writer.appendMessage(said('change a.txt'))
  const recorder = new CheckpointRecorder({ home, sessionId: 's1', projectPath: project, env: process.env, transcriptPath: transcript, enabled: () => true, notice: () => undefined, watch: false })
  await recorder.before({ toolUseId: 't1', name: 'Bash', agentId: 'main', summary: 'Bash: change' })
  writeFileSync(join(project, 'a.txt'), 'after\n')
  writeFileSync(join(project, 'new.txt'), 'new\n')
  await recorder.after('t1')
  writer.appendMessage(said('and more'))
  await recorder.close()
  return { checkpointId: (await recorder.journal.read())[0]!.id, transcript }
}

describe('a rewind or fork on a full disk', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('a rewind whose files cannot be written changes neither the project nor the conversation', refusal), async () => {
    place('project')
    const { checkpointId, transcript } = await session()
    const before = readFileSync(transcript, 'utf8')
    disk.fill()
    // Deleting new.txt would give a page back; a.txt needs more: a rewind that deleted first would stop half done.
    const outcome = await rewind({ home, env: process.env, sessionId: 's1', checkpointId, mode: 'both' })
    expect(outcome).toEqual({ error: expect.stringMatching(/^the restored files could not be written \(ENOSPC.*\); nothing was changed$/) })
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('after\n')
    expect(readFileSync(join(project, 'new.txt'), 'utf8')).toBe('new\n')
    expect(readdirSync(project).sort()).toEqual(['a.txt', 'new.txt'])
    expect(readFileSync(transcript, 'utf8')).toBe(before)
    // With room again, the same rewind does both.
    disk.free()
    expect(await rewind({ home, env: process.env, sessionId: 's1', checkpointId, mode: 'both' })).toMatchObject({ restored: ['new.txt', 'a.txt'], messages: 1 })
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe(BEFORE)
    expect(readdirSync(project)).toEqual(['a.txt'])
  })

  it.skipIf(refusal !== undefined)(skippedUnless('a fork that cannot be written says so and leaves no session behind', refusal), async () => {
    place('home')
    const { checkpointId } = await session()
    const checkpoint = (await new CheckpointRecorder({ home, sessionId: 's1', projectPath: project, env: process.env, transcriptPath: '', enabled: () => true, notice: () => undefined, watch: false }).journal.read()).find((entry) => entry.id === checkpointId)!
    disk.fill()
    await expect(forkAt(home, checkpoint)).rejects.toThrow(/^the fork could not be written to .*ENOSPC.*no session was created$/)
    expect(readdirSync(sessionsDir(home, project))).toEqual(['s1.jsonl'])
  })
})
