import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { transcriptPath, TranscriptWriter } from '../store/transcript'
import { pruneCheckpoints } from './prune'
import { CheckpointRecorder } from './recorder'
import { applyRestore } from './restore-apply'
import { planRestore } from './restore-plan'
import { checkpointRef, checkpointsDir, indexPath, journalPath } from './types'

// The pruning policy on real files and real git: a session keeps its newest checkpoints (and
// stays restorable from the oldest one kept), a deleted session's journal, index and ref go,
// and the content store keeps exactly what the kept checkpoints need.
let root: string
let home: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-prune-'))
  home = join(root, 'home')
})
afterEach(() => rm(root, { recursive: true, force: true }))

/** A session in `project` with `count` call checkpoints, each after a new version of `file`; `stored`: its transcript exists. */
async function session(project: string, file: string, count: number, stored: boolean): Promise<{ sessionId: string; recorder: CheckpointRecorder }> {
  const sessionId = randomUUID()
  const path = transcriptPath(home, project, sessionId)
  if (stored) TranscriptWriter.create(path, { sessionId, projectPath: project })
  const recorder = new CheckpointRecorder({ home, sessionId, projectPath: project, env: process.env, transcriptPath: path, enabled: () => true, notice: () => undefined })
  for (let step = 1; step <= count; step++) {
    await writeFile(join(project, file), `${file} version ${step}\n`)
    await recorder.before({ toolUseId: `t${step}`, name: 'Bash', agentId: 'main', summary: 'Bash: write' })
    await recorder.after(`t${step}`)
  }
  await recorder.settled()
  return { sessionId, recorder }
}

/** Every blob file under the content store. */
async function blobCount(): Promise<number> {
  const dir = join(checkpointsDir(home), 'blobs')
  let total = 0
  for (const folder of await readdir(dir).catch(() => [])) total += (await readdir(join(dir, folder))).length
  return total
}

const later = () => Date.now() + 2 * 60 * 60 * 1000

describe('pruning checkpoints', () => {
  it('outside git: keeps the newest, drops a deleted session, and sweeps the content store to what is kept', async () => {
    const project = join(root, 'plain')
    const other = join(root, 'other')
    await mkdir(project)
    await mkdir(other)
    const kept = await session(project, 'kept.txt', 4, true)
    const gone = await session(other, 'gone.txt', 2, false)
    const before = await blobCount()
    const report = await pruneCheckpoints(home, process.env, { maxCheckpoints: 2, now: later() })
    expect(report).toMatchObject({ checkpoints: 2, sessions: 1, problems: [] })
    expect(existsSync(journalPath(home, gone.sessionId))).toBe(false)
    const checkpoints = await kept.recorder.journal.read()
    expect(checkpoints.map((checkpoint) => checkpoint.trigger.kind === 'tool' && checkpoint.trigger.toolUseId)).toEqual(['t3', 't4'])
    // The blobs of dropped versions and of the deleted session are gone; a kept checkpoint restores.
    expect(report.blobs).toBeGreaterThan(0)
    expect(await blobCount()).toBe(before - report.blobs)
    // A second prune finds nothing more to do.
    expect(await pruneCheckpoints(home, process.env, { maxCheckpoints: 2, now: later() })).toMatchObject({ checkpoints: 0, sessions: 0, blobs: 0, manifests: 0 })
    const plan = await planRestore(kept.recorder.workspace, checkpoints, 0)
    if ('error' in plan) throw new Error(plan.error)
    expect(await applyRestore(kept.recorder.workspace, plan, { force: true })).toMatchObject({ restored: ['kept.txt'] })
    expect(await readFile(join(project, 'kept.txt'), 'utf8')).toBe('kept.txt version 3\n')
  }, 60_000)

  it('in git: the ref holds only the kept trees, a deleted session loses its ref and index, and a recent journal is left alone', async () => {
    const project = join(root, 'repo')
    await mkdir(project)
    const git = (args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
    git(['init', '-q', '-b', 'main'])
    const kept = await session(project, 'a.txt', 3, true)
    const gone = await session(project, 'b.txt', 1, false)
    expect(git(['for-each-ref', '--format=%(refname)', 'refs/sous'])).toContain(gone.sessionId)
    // Right now both journals are recent: nothing is touched.
    expect(await pruneCheckpoints(home, process.env, { maxCheckpoints: 1 })).toMatchObject({ checkpoints: 0, sessions: 0 })
    const report = await pruneCheckpoints(home, process.env, { maxCheckpoints: 1, now: later() })
    expect(report).toMatchObject({ checkpoints: 2, sessions: 1, problems: [] })
    expect(git(['for-each-ref', '--format=%(refname)', 'refs/sous']).trim()).toBe(checkpointRef(kept.sessionId))
    expect(existsSync(indexPath(home, gone.sessionId))).toBe(false)
    // The ref's one commit reaches the kept checkpoint's tree, and nothing older.
    const [checkpoint] = await kept.recorder.journal.read()
    const state = checkpoint!.before
    if (state.kind !== 'git') throw new Error('expected a git state')
    expect(git(['rev-list', '--count', checkpointRef(kept.sessionId)]).trim()).toBe('1')
    expect(git(['ls-tree', `${checkpointRef(kept.sessionId)}^{tree}`])).toContain(state.tree)
    const plan = await planRestore(kept.recorder.workspace, [checkpoint!], 0)
    expect('error' in plan).toBe(false)
  }, 60_000)
})
