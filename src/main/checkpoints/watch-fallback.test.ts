import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckpointRecorder } from './recorder'
import { watchedFolders } from './tree-watcher'
import { checkpointsDir } from './types'
import { Workspace, type WorkspaceOptions } from './workspace'

// Whenever the watcher cannot vouch for its paths the snapshot reads everything, says why, and
// is right; a closed session leaves no watch open.
let root: string
let project: string
let home: string
const open: Workspace[] = []

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-watch-fallback-'))
  project = join(root, 'project')
  home = join(root, 'home')
  for (const folder of ['a', 'b', 'c']) {
    await mkdir(join(project, folder), { recursive: true })
    await writeFile(join(project, folder, 'file.txt'), `${folder}\n`)
  }
})
afterEach(async () => {
  for (const workspace of open.splice(0)) await workspace.close()
  await rm(root, { recursive: true, force: true })
})

function workspace(watch: WorkspaceOptions['watch'] = true): Workspace {
  const made = new Workspace({ home, sessionId: 's', projectPath: project, env: process.env, watch })
  open.push(made)
  return made
}

const git = (args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgSign=false', ...args], { cwd: project, stdio: 'pipe' })

describe('the full scan the watcher falls back to', () => {
  it('is taken when a .gitignore changes, and the snapshot after it is incremental again', async () => {
    const watched = workspace()
    await watched.snapshot()
    await writeFile(join(project, '.gitignore'), 'b/\n')
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: '.gitignore changed' })
    expect([...(await watched.entries(await watched.snapshot())).entries.keys()].sort()).toEqual(['.gitignore', 'a/file.txt', 'c/file.txt'])
    await writeFile(join(project, 'a', 'file.txt'), 'changed\n')
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'paths', paths: 1 })
  })

  it('is taken when more events came than the kernel’s queue is sure to hold', async () => {
    const watched = workspace({ maxEvents: 10 })
    await watched.snapshot()
    for (let index = 0; index < 12; index++) await writeFile(join(project, 'a', `n${index}.txt`), 'n\n')
    const state = await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: expect.stringContaining('the kernel may have dropped some') })
    expect((await watched.entries(state)).entries.size).toBe(15)
  })

  it('is every snapshot once the watcher hit its limit on folders, and nothing is watched', async () => {
    const before = watchedFolders()
    const watched = workspace({ maxFolders: 2 })
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'the first snapshot' })
    expect(watchedFolders()).toBe(before)
    await writeFile(join(project, 'c', 'file.txt'), 'changed\n')
    const state = await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'no file watcher: the project has more than 2 folders to watch' })
    expect((await watched.entries(state)).entries.size).toBe(3)
  })

  it('is taken at least every fullEveryMs, for what inotify cannot see', async () => {
    let now = 0
    const watched = workspace({ fullEveryMs: 1000, now: () => now })
    await watched.snapshot()
    now = 500
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'unchanged' })
    now = 1500
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'the periodic full scan' })
  })

  it('is taken after a snapshot that failed (the paths it took are lost with it)', async () => {
    const watched = workspace()
    await watched.snapshot()
    await writeFile(join(project, 'a', 'file.txt'), 'changed\n')
    // Outside git: the blob store cannot be written while a file sits where its folder goes.
    await rm(join(checkpointsDir(home), 'blobs'), { recursive: true })
    await writeFile(join(checkpointsDir(home), 'blobs'), 'not a folder')
    expect((await watched.snapshot()).kind).toBe('missing')
    await unlink(join(checkpointsDir(home), 'blobs'))
    const state = await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'the previous snapshot failed' })
    const { entries } = await watched.entries(state)
    expect((await watched.blobs('content', [entries.get('a/file.txt')!.id])).missing).toEqual([])
  })

  it('is taken in git when the private index was written by someone else, or git’s own excludes changed', async () => {
    git(['init', '-q', '-b', 'main'])
    git(['add', '-A'])
    git(['commit', '-qm', 'start'])
    const watched = workspace()
    await watched.snapshot()
    // A rewind from the command line reads the same session's private index (and writes it, when a file changed).
    await writeFile(join(project, 'a', 'file.txt'), 'changed\n')
    await new Workspace({ home, sessionId: 's', projectPath: project, env: process.env }).snapshot()
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'the private index was written by someone else' })
    await writeFile(join(project, '.git', 'info', 'exclude'), 'c/\n')
    const state = await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: "git's ignore rules or configuration changed" })
    expect(state.kind === 'git' && git(['ls-tree', '-r', '--name-only', state.tree]).toString()).toBe('a/file.txt\nb/file.txt\nc/file.txt\n')
    await writeFile(join(project, 'c', 'new.txt'), 'ignored now\n')
    await writeFile(join(project, 'b', 'new.txt'), 'not ignored\n')
    const next = await watched.snapshot()
    expect(watched.lastScan?.kind).toBe('paths')
    expect(next.kind === 'git' && git(['ls-tree', '-r', '--name-only', next.tree]).toString()).toBe('a/file.txt\nb/file.txt\nb/new.txt\nc/file.txt\n')
  })

  it('is every snapshot of a workspace that does not watch (a one-off reader)', async () => {
    const reader = workspace(false)
    await reader.snapshot()
    await reader.snapshot()
    expect(reader.lastScan).toEqual({ kind: 'full', reason: 'no file watcher' })
  })
})

describe('the content store’s chain of delta manifests', () => {
  it('stays readable across the full listing written after the 32nd snapshot answered', async () => {
    const watched = workspace()
    const states = []
    for (let round = 0; round < 36; round++) {
      await writeFile(join(project, 'a', 'file.txt'), `round ${round}\n`)
      states.push(await watched.snapshot())
      await watched.flush()
    }
    const { contents } = await watched.blobs('content', [(await watched.entries(states[33]!)).entries.get('a/file.txt')!.id])
    expect([...contents.values()].map(String)).toEqual(['round 33\n'])
    const manifests = await readdir(join(checkpointsDir(home), 'manifests'))
    // One per snapshot, and the full listings beside them.
    expect(manifests.length).toBeGreaterThan(36)
    expect([...(await watched.entries(states[35]!)).entries.keys()].sort()).toEqual(['a/file.txt', 'b/file.txt', 'c/file.txt'])
  })
})

describe('a closed session', () => {
  it('leaves no watch open and removes its fence folder; a call gets one checkpoint and one after-state', async () => {
    const before = watchedFolders()
    const recorder = new CheckpointRecorder({ home, sessionId: 's', projectPath: project, env: process.env, transcriptPath: join(root, 'none.jsonl'), enabled: () => true, notice: () => undefined })
    const call = { toolUseId: 't1', name: 'Bash', agentId: 'main', summary: 'Bash: work' }
    await recorder.before(call)
    expect(watchedFolders()).toBe(before + 5)
    await recorder.before(call)
    await writeFile(join(project, 'a', 'file.txt'), 'changed\n')
    await recorder.after('t1')
    await recorder.after('t1')
    const journal = await recorder.journal.read()
    expect(journal).toHaveLength(1)
    expect(journal[0]!.after).toBeDefined()
    expect(recorder.workspace.lastScan).toEqual({ kind: 'paths', paths: 1 })
    await recorder.close()
    expect(watchedFolders()).toBe(before)
    expect(await readdir(join(checkpointsDir(home), 'watch'))).toEqual([])
    // A closed workspace still records (everything), without watching again.
    expect((await recorder.workspace.snapshot()).kind).toBe('content')
    expect(recorder.workspace.lastScan).toEqual({ kind: 'full', reason: 'no file watcher' })
    expect(watchedFolders()).toBe(before)
  })
})
