import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckpointRecorder } from './recorder'
import type { TreeState } from './types'
import { Workspace } from './workspace'

// A watching workspace's snapshots read only what changed; each must record exactly the tree a
// full scan records (a fresh session's workspace, which reads everything), after real Bash
// commands run by another process, in a git repository and outside git.
let root: string
let project: string
let home: string
let watched: Workspace

const sh = (command: string) => execFileSync('bash', ['-c', command], { cwd: project, stdio: 'pipe' })
const git = (command: string) => sh(`git -c user.name=t -c user.email=t@t -c commit.gpgSign=false ${command}`)

async function seed(kind: 'git' | 'content'): Promise<void> {
  root = await mkdtemp(join(tmpdir(), 'sous-watch-'))
  project = join(root, 'project')
  home = join(root, 'home')
  for (const folder of ['src/deep/er', 'docs']) await mkdir(join(project, folder), { recursive: true })
  for (const name of ['one', 'two', 'three', 'four']) await writeFile(join(project, 'src', `${name}.txt`), `${name}\na line\n`)
  await writeFile(join(project, 'src/deep/er/leaf.txt'), 'leaf\n')
  await writeFile(join(project, 'docs/readme.md'), '# docs\n')
  await writeFile(join(project, '.gitignore'), 'build/\n*.log\n')
  if (kind === 'git') {
    git('init -q -b main')
    git('add -A')
    git('commit -qm start')
  }
  watched = new Workspace({ home, sessionId: 'watched', projectPath: project, env: process.env, watch: true })
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

let fresh = 0
/** What a full scan records now: a workspace of a new session, no watcher, no private index yet. */
async function fullScan(): Promise<TreeState> {
  const reader = new Workspace({ home, sessionId: `full-${++fresh}`, projectPath: project, env: process.env })
  return reader.snapshot()
}

async function files(state: TreeState): Promise<Array<[string, string]>> {
  const { entries } = await watched.entries(state)
  return [...entries].map(([path, entry]): [string, string] => [path, `${entry.mode} ${entry.id}`]).sort()
}

/** Snapshots through the watcher, expecting it to have read only changed paths, and compares with a full scan. */
async function expectSameAsFull(read?: () => void): Promise<void> {
  const state = await watched.snapshot(read)
  expect(state.kind).not.toBe('missing')
  expect(watched.lastScan?.kind, JSON.stringify(watched.lastScan)).not.toBe('full')
  const full = await fullScan()
  if (state.kind === 'git' && full.kind === 'git') expect(state.tree).toBe(full.tree)
  expect(await files(state)).toEqual(await files(full))
}

const steps: Array<[string, string]> = [
  ['sed -i', "sed -i 's/a line/an edited line/' src/one.txt"],
  ['rm', 'rm src/two.txt'],
  ['mv', 'mv src/three.txt src/renamed.txt'],
  ['a heredoc', "cat > src/here.txt <<'EOF'\nwritten by a heredoc\nEOF"],
  ['a new untracked file', 'echo new > fresh.txt'],
  ['a rename across folders (a folder moved)', 'mkdir -p elsewhere && mv src/deep elsewhere/deep'],
  ['a write inside the folder moved before', 'echo more >> elsewhere/deep/er/leaf.txt && echo new > elsewhere/deep/er/new.txt'],
  ['a file made and deleted between snapshots', 'echo tmp > gone.txt && rm gone.txt'],
  ['new nested folders', 'mkdir -p a/b/c && echo x > a/b/c/x.txt'],
  ['a write in a folder that appeared at the previous step', 'echo y > a/b/c/y.txt && mkdir a/b/c/d && echo z > a/b/c/d/z.txt'],
  ['ignored files', 'mkdir -p build && echo b > build/out.js && echo l > debug.log && echo l2 > src/trace.log'],
  ['ignored and not together', 'echo b2 > build/more.js && echo kept > docs/kept.md'],
  ['chmod +x', 'chmod +x src/one.txt'],
  ['a symlink to a folder', 'ln -s docs docs-link'],
  ['a write through the symlink', 'echo through >> docs-link/readme.md'],
  ['a file that becomes a folder', 'rm src/four.txt && mkdir src/four.txt && echo in > src/four.txt/inner.txt'],
  ['a folder deleted', 'rm -rf elsewhere'],
  ['names with spaces, globs and pathspec magic', "echo g > 'src/*[x] y.txt' && echo m > ':(top)odd' && echo t > 'trailing '"],
  ['a name with a newline beside an ignored file', "echo n > $'src/new\\nline.txt' && echo i > src/again.log"],
  ['a temp file renamed over a file (an atomic write)', 'echo atomic > src/.one.tmp && mv src/.one.tmp src/one.txt'],
]

describe.each(['git', 'content'] as const)('incremental snapshots (%s)', (kind) => {
  beforeEach(() => seed(kind))
  afterEach(async () => {
    await watched.close()
    await rm(root, { recursive: true, force: true })
  })

  // With `read` (a call waits), git's changed files are read into memory first and added from a copy.
  it.each([['', undefined], [' when a call waits for it', () => undefined]] as const)('record exactly what a full scan records, step after step%s', async (_, read) => {
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'the first snapshot' })
    for (const [name, command] of steps) {
      sh(command)
      await expectSameAsFull(read).catch((error: Error) => {
        throw new Error(`after ${name}: ${error.message}`)
      })
    }
    // Nothing changed since: no file is read, and the tree is the same.
    const before = await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'unchanged' })
    expect(await files(before)).toEqual(await files(await fullScan()))
  })

  it('see a change made by another process while nothing of ours runs, and one made by this process', async () => {
    await watched.snapshot()
    await new Promise<void>((resolve) => spawn('sh', ['-c', 'sleep 0.2; echo late > src/late.txt; echo again >> docs/readme.md'], { cwd: project }).on('exit', () => resolve()))
    await expectSameAsFull()
    // Written the instant before the snapshot: its event may not have been read yet (the fence waits for it).
    await writeFile(join(project, 'src', 'one.txt'), 'this process\n')
    await expectSameAsFull()
  })

  it('record a file changed through a hard link from outside the project (no event reaches the watch)', async () => {
    const outside = join(root, 'outside')
    await mkdir(outside)
    await link(join(project, 'src', 'one.txt'), join(outside, 'one.txt'))
    await watched.snapshot()
    await writeFile(join(outside, 'one.txt'), 'written through the other name\n', { flag: 'r+' })
    await expectSameAsFull()
    // A hard link made inside the tree: an event on the new name only. The snapshot reads
    // everything (the other name could be anywhere) and the new walk knows both names.
    sh('ln src/two.txt docs/two-again.txt')
    await watched.snapshot()
    expect(watched.lastScan).toEqual({ kind: 'full', reason: 'docs/two-again.txt has another name (a hard link)' })
    await writeFile(join(project, 'docs', 'two-again.txt'), 'two, through its new name\n', { flag: 'r+' })
    await expectSameAsFull()
  })
})

describe('a call’s checkpoint in git', () => {
  beforeEach(() => seed('git'))
  afterEach(async () => {
    await watched.close()
    await rm(root, { recursive: true, force: true })
  })

  it('lets the call run once the tree is read, and still records the tree from before the call (and HEAD)', async () => {
    const recorder = new CheckpointRecorder({ home, sessionId: 'calls', projectPath: project, env: process.env, transcriptPath: join(root, 'none.jsonl'), enabled: () => true, notice: () => undefined })
    await recorder.before({ toolUseId: 't0', name: 'Bash', agentId: 'main', summary: 'Bash: first' })
    await writeFile(join(project, 'src', 'one.txt'), 'before the call\n')
    const expected = await fullScan()
    await recorder.before({ toolUseId: 't1', name: 'Bash', agentId: 'main', summary: 'Bash: commit' })
    // The call: it changes a file and commits the moment its checkpoint lets it run.
    await writeFile(join(project, 'src', 'one.txt'), 'the call\n')
    git('commit -qam "the call"')
    await recorder.settled()
    const checkpoint = (await recorder.journal.read()).find((entry) => entry.trigger.kind === 'tool' && entry.trigger.toolUseId === 't1')!
    expect(recorder.workspace.lastScan).toEqual({ kind: 'paths', paths: 1 })
    expect(checkpoint.before).toEqual(expected)
    await recorder.close()
  })
})

describe('a call’s checkpoint outside git', () => {
  beforeEach(() => seed('content'))
  afterEach(async () => {
    await watched.close()
    await rm(root, { recursive: true, force: true })
  })

  it('lets the call run before the blobs are written, and records the tree from before the call', async () => {
    const first = await files(await watched.snapshot())
    await writeFile(join(project, 'src', 'one.txt'), 'before the call\n')
    // Not a full scan's: it would store the blob this test expects not to be stored yet.
    const expected = first.map(([path, entry]) => [path, path === 'src/one.txt' ? `100644 ${sha256('before the call\n')}` : entry])
    const blob = (text: string) => join(home, 'checkpoints', 'blobs', sha256(text).slice(0, 2), sha256(text).slice(2))
    let storedBeforeTheCall: boolean | undefined
    // The call: the moment the checkpoint lets it run, it rewrites the file read a moment ago and
    // makes it ignored (its rules are the ones read with it).
    const state = await watched.snapshot(() => {
      storedBeforeTheCall = existsSync(blob('before the call\n'))
      writeFileSync(join(project, 'src', 'one.txt'), 'the call\n')
      writeFileSync(join(project, '.gitignore'), 'build/\n*.log\n*.txt\n')
    })
    expect(watched.lastScan).toEqual({ kind: 'paths', paths: 1 })
    expect(storedBeforeTheCall).toBe(false)
    expect(await files(state)).toEqual(expected)
    expect(existsSync(blob('the call\n'))).toBe(false)
  })
})

describe('incremental snapshots in a repository with a nested repository', () => {
  beforeEach(() => seed('git'))
  afterEach(async () => {
    await watched.close()
    await rm(root, { recursive: true, force: true })
  })

  it('record the nested repository’s commit as the full scan does, though its commits happen where no watch sees', async () => {
    await mkdir(join(project, 'nested'))
    const inNested = (command: string) => execFileSync('bash', ['-c', `git -c user.name=t -c user.email=t@t -c commit.gpgSign=false ${command}`], { cwd: join(project, 'nested'), stdio: 'pipe' })
    inNested('init -q -b main')
    await writeFile(join(project, 'nested', 'n.txt'), 'n\n')
    inNested('add -A')
    inNested('commit -qm one')
    await watched.snapshot()
    await writeFile(join(project, 'nested', 'n.txt'), 'n2\n')
    inNested('commit -qam two')
    await expectSameAsFull()
    // A repository made inside the tree after the watcher started.
    sh('mkdir later && cd later && git init -q -b main && echo l > l.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm l')
    await expectSameAsFull()
    sh('cd later && echo l2 > l.txt && git -c user.name=t -c user.email=t@t commit -qam l2')
    await expectSameAsFull()
  })
})
