import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { smallDiskRefusal } from '../../../test/support/full-disk'
import { skippedUnless } from '../../../test/support/sandbox-scratch'
import { TranscriptWriter, transcriptPath } from '../store/transcript'
import { CheckpointRecorder } from './recorder'
import { rewind } from './rewind'

// A restore stages its files in the project's root and renames them into place; a folder of the
// project that is a mount of its own (a tmpfs here, a volume or a network share for a user) is
// another file system, where rename says EXDEV. The files there are restored all the same.
const refusal = smallDiskRefusal()

let base: string
let project: string
let home: string
beforeEach(() => {
  if (refusal !== undefined) return
  base = mkdtempSync(join(tmpdir(), 'sous-rewind-mount-'))
  project = join(base, 'project')
  home = join(base, 'home')
  mkdirSync(join(project, 'mounted'), { recursive: true })
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0755', 'tmpfs', join(project, 'mounted')], { stdio: 'pipe' })
})
afterEach(() => {
  if (refusal !== undefined) return
  execFileSync('umount', [join(project, 'mounted')], { stdio: 'pipe' })
  rmSync(base, { recursive: true, force: true })
})

describe('a rewind into a folder mounted inside the project', () => {
  it.skipIf(refusal !== undefined)(skippedUnless('restores the files and links there, and writes through no link', refusal), async () => {
    const outside = join(base, 'outside.txt')
    writeFileSync(outside, 'outside\n')
    writeFileSync(join(project, 'mounted', 'b.txt'), 'b before\n')
    writeFileSync(join(project, 'mounted', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 })
    symlinkSync('b.txt', join(project, 'mounted', 'link'))
    const transcript = transcriptPath(home, project, 's1')
    TranscriptWriter.create(transcript, { sessionId: 's1', projectPath: project }).appendMessage({ role: 'user', content: [{ type: 'text', text: 'change them' }] })
    const recorder = new CheckpointRecorder({ home, sessionId: 's1', projectPath: project, env: process.env, transcriptPath: transcript, enabled: () => true, notice: () => undefined, watch: false })
    await recorder.before({ toolUseId: 't1', name: 'Bash', agentId: 'main', summary: 'Bash: change' })
    // The call rewrote b.txt as a link out of the project, changed run.sh and removed the link.
    rmSync(join(project, 'mounted', 'b.txt'))
    symlinkSync(outside, join(project, 'mounted', 'b.txt'))
    writeFileSync(join(project, 'mounted', 'run.sh'), 'changed\n')
    rmSync(join(project, 'mounted', 'link'))
    await recorder.after('t1')
    await recorder.close()
    const checkpointId = (await recorder.journal.read())[0]!.id

    const outcome = await rewind({ home, env: process.env, sessionId: 's1', checkpointId, mode: 'code', force: true })
    expect(outcome).not.toHaveProperty('error')
    expect(lstatSync(join(project, 'mounted', 'b.txt')).isSymbolicLink()).toBe(false)
    expect(readFileSync(join(project, 'mounted', 'b.txt'), 'utf8')).toBe('b before\n')
    expect(readFileSync(outside, 'utf8')).toBe('outside\n')
    expect(readFileSync(join(project, 'mounted', 'run.sh'), 'utf8')).toBe('#!/bin/sh\n')
    expect(lstatSync(join(project, 'mounted', 'run.sh')).mode & 0o777).toBe(0o755)
    expect(readlinkSync(join(project, 'mounted', 'link'))).toBe('b.txt')
  })
})
