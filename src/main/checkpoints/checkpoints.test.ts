import { mkdir, mkdtemp, readdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CheckpointRecorder, type RecorderOptions } from './recorder'
import { applyRestore } from './restore-apply'
import { planRestore } from './restore-plan'
import { checkpointsDir } from './types'

// The store's refusals and guards on real files: a damaged store, a symlink swapped in for a
// folder, the setting that turns checkpoints off, a snapshot that cannot be written.
let root: string
let project: string
let home: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-checkpoints-'))
  project = join(root, 'project')
  home = join(root, 'home')
  await mkdir(join(project, 'sub'), { recursive: true })
  await writeFile(join(project, 'a.txt'), 'a\n')
  await writeFile(join(project, 'sub', 'file.txt'), 'inside\n')
})
afterEach(() => rm(root, { recursive: true, force: true }))

function recorder(options: Partial<RecorderOptions> = {}): CheckpointRecorder {
  return new CheckpointRecorder({ home, sessionId: 's1', projectPath: project, env: process.env, transcriptPath: join(root, 'none.jsonl'), enabled: () => true, notice: () => undefined, ...options })
}

const call = (id: string) => ({ toolUseId: id, name: 'Bash', agentId: 'main', summary: 'Bash: work' })

describe('checkpoint restore', () => {
  it('refuses to restore from a store that lost a blob, writing nothing', async () => {
    const taking = recorder()
    expect(await taking.before(call('t1'))).toBeUndefined()
    await writeFile(join(project, 'a.txt'), 'changed by the agent\n')
    await taking.after('t1')
    await taking.before(call('t2'))
    const blobs = join(checkpointsDir(home), 'blobs')
    for (const folder of await readdir(blobs)) await rm(join(blobs, folder), { recursive: true })
    const checkpoints = await taking.journal.read()
    const plan = await planRestore(taking.workspace, checkpoints, 0)
    if ('error' in plan) throw new Error(plan.error)
    const outcome = await applyRestore(taking.workspace, plan)
    expect(outcome).toEqual({ error: expect.stringContaining(`checkpoint ${checkpoints[0]!.id} cannot be restored`) })
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('changed by the agent\n')
  })

  it('never writes through a symlink that replaced a folder', async () => {
    const outside = join(root, 'outside')
    await mkdir(outside)
    await writeFile(join(outside, 'file.txt'), 'outside\n')
    const taking = recorder()
    await taking.before(call('t1'))
    await rm(join(project, 'sub'), { recursive: true })
    await symlink(outside, join(project, 'sub'))
    await taking.after('t1')
    const plan = await planRestore(taking.workspace, await taking.journal.read(), 0)
    if ('error' in plan) throw new Error(plan.error)
    const outcome = await applyRestore(taking.workspace, plan)
    expect(outcome).toMatchObject({ kept: [] })
    expect(await readFile(join(outside, 'file.txt'), 'utf8')).toBe('outside\n')
    expect(await readFile(join(project, 'sub', 'file.txt'), 'utf8')).toBe('inside\n')
  })

  it('takes none when fileCheckpointingEnabled is false, and says once on the card when a snapshot fails', async () => {
    const off = recorder({ enabled: () => false })
    expect(await off.before(call('t1'))).toBeUndefined()
    expect(await off.journal.read()).toEqual([])
    // $SOUS_HOME's checkpoints folder is a file: nothing can be stored there.
    await mkdir(home, { recursive: true })
    await writeFile(join(home, 'checkpoints'), 'not a folder')
    const failing = recorder()
    expect(await failing.before(call('t2'))).toContain('Checkpoint not recorded before this call')
    // The same call is never checkpointed twice.
    expect(await failing.before(call('t2'))).toBeUndefined()
    await unlink(join(home, 'checkpoints'))
  })
})
