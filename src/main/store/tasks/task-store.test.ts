import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isValidTaskListName, taskListDir, TaskStore, type TaskChange } from './task-store'

let root: string
let dir: string
let store: TaskStore

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-tasks-'))
  dir = taskListDir(root, 'session-1')
  store = new TaskStore(dir)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

async function make(subject: string): Promise<string> {
  const created = await store.create({ subject, description: `${subject} in detail` }, 'main')
  if (!created.ok) throw new Error(created.error)
  return created.task.id
}

async function task(id: string) {
  const got = await store.get(id)
  if (!got.ok) throw new Error(got.error)
  return got.task
}

describe('TaskStore ids', () => {
  it('hands out increasing ids and never reuses one after deletions', async () => {
    expect([await make('a'), await make('b'), await make('c')]).toEqual(['1', '2', '3'])
    expect(await store.update('3', { status: 'deleted' }, 'main')).toMatchObject({ ok: true, deleted: true })
    expect(await make('d')).toBe('4')
    for (const id of ['1', '2', '4']) await store.update(id, { status: 'deleted' }, 'main')
    expect((await store.list()).tasks).toEqual([])
    expect(await make('e')).toBe('5')
    expect(await readFile(join(dir, '.highwatermark'), 'utf8')).toBe('5\n')
  })

  it('stays above a task file written past the high-water mark (a crash between the two writes)', async () => {
    await make('a')
    await writeFile(join(dir, '9.json'), JSON.stringify({ id: '9', subject: 's', description: 'd', status: 'pending', blocks: [], blockedBy: [] }))
    store = new TaskStore(dir)
    expect(await make('b')).toBe('10')
  })

  it('refuses new ids when the high-water mark is damaged, rather than guess', async () => {
    await make('a')
    await writeFile(join(dir, '.highwatermark'), 'garbage')
    await expect(store.create({ subject: 'x', description: 'y' }, 'main')).rejects.toThrow(/id counter .*damaged/)
    expect((await store.list()).tasks.map((t) => t.id)).toEqual(['1'])
  })

  it('accepts "#3" and refuses ids that are not numbers (never a path)', async () => {
    await make('a')
    expect((await store.get('#1')).ok).toBe(true)
    expect(await store.get('../../etc/passwd')).toEqual({ ok: false, error: '"../../etc/passwd" is not a task id.' })
    expect(await store.update('1/../2', { subject: 'x' }, 'main')).toMatchObject({ ok: false })
    expect(await store.get('7')).toEqual({ ok: false, error: 'No task #7.' })
  })

  it('writes one JSON file per task with the documented fields', async () => {
    const id = (await store.create({ subject: 'Run tests', description: 'npm test', activeForm: 'Running tests', metadata: { area: 'ci' } }, 'main')) as { ok: true; task: { id: string } }
    const file = JSON.parse(await readFile(join(dir, `${id.task.id}.json`), 'utf8')) as Record<string, unknown>
    expect(file).toEqual({ id: '1', subject: 'Run tests', description: 'npm test', activeForm: 'Running tests', status: 'pending', blocks: [], blockedBy: [], metadata: { area: 'ci' } })
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})

describe('TaskStore links', () => {
  it('keeps blocks and blockedBy symmetric, from either side, and on delete', async () => {
    const [a, b, c] = [await make('a'), await make('b'), await make('c')]
    expect(await store.update(a, { addBlocks: [b] }, 'main')).toMatchObject({ ok: true, updatedFields: ['blocks'] })
    expect(await store.update(c, { addBlockedBy: [b] }, 'main')).toMatchObject({ ok: true, updatedFields: ['blockedBy'] })
    expect(await task(a)).toMatchObject({ blocks: ['2'], blockedBy: [] })
    expect(await task(b)).toMatchObject({ blocks: ['3'], blockedBy: ['1'] })
    expect(await task(c)).toMatchObject({ blocks: [], blockedBy: ['2'] })
    await store.update(b, { status: 'deleted' }, 'main')
    expect(await task(a)).toMatchObject({ blocks: [] })
    expect(await task(c)).toMatchObject({ blockedBy: [] })
    // On disk too, not only in what readers compute.
    expect(JSON.parse(await readFile(join(dir, '3.json'), 'utf8'))).toMatchObject({ blockedBy: [] })
  })

  it('refuses links that would close a cycle, to itself, or to a task that does not exist', async () => {
    const [a, b, c] = [await make('a'), await make('b'), await make('c')]
    await store.update(a, { addBlocks: [b] }, 'main')
    await store.update(b, { addBlocks: [c] }, 'main')
    expect(await store.update(c, { addBlocks: [a] }, 'main')).toEqual({ ok: false, error: '#3 cannot block #1: #1 already leads to #3, so neither could ever start.' })
    expect(await store.update(a, { addBlockedBy: [a] }, 'main')).toEqual({ ok: false, error: 'Task #1 cannot block itself.' })
    expect(await store.update(a, { addBlocks: ['42'] }, 'main')).toEqual({ ok: false, error: 'No task #42.' })
    expect(await task(c)).toMatchObject({ blocks: [] })
  })

  it('reads a link written on one side only (a crash between the two writes) as whole', async () => {
    const [a, b] = [await make('a'), await make('b')]
    const file = join(dir, `${a}.json`)
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), blocks: [b, '99'] }))
    // The process that crashed is gone; the next one reads the folder.
    store = new TaskStore(dir)
    expect(await task(b)).toMatchObject({ blockedBy: ['1'] })
    expect(await task(a)).toMatchObject({ blocks: ['2'] })
    expect(await store.update(b, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: false, error: expect.stringMatching(/blocked by #1/) })
  })
})

describe('TaskStore claims', () => {
  it('gives a task to one owner; others are refused until it is released', async () => {
    const id = await make('a')
    expect(await store.update(id, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: true, task: { owner: 'w1', status: 'in_progress' } })
    expect(await store.update(id, { status: 'in_progress' }, 'w2')).toEqual({ ok: false, error: 'Task #1 is already in progress (owner: w1); pick another task.' })
    expect(await store.update(id, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: true })
    expect(await store.update(id, { status: 'pending', owner: '' }, 'w1')).toMatchObject({ ok: true, task: { status: 'pending' } })
    expect(await store.update(id, { status: 'in_progress' }, 'w2')).toMatchObject({ ok: true, task: { owner: 'w2' } })
  })

  it('refuses to claim a completed task or one assigned to someone else', async () => {
    const [a, b] = [await make('a'), await make('b')]
    await store.update(a, { status: 'completed' }, 'main')
    expect(await store.update(a, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: false, error: expect.stringMatching(/already completed/) })
    await store.update(b, { owner: 'w2' }, 'lead')
    expect(await store.update(b, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: false, error: expect.stringMatching(/is assigned \(owner: w2\)/) })
    expect(await store.update(b, { status: 'in_progress' }, 'w2')).toMatchObject({ ok: true })
  })

  it('refuses to claim a blocked task until its blockers complete, and reports what completing unblocked', async () => {
    const [a, b, c] = [await make('a'), await make('b'), await make('c')]
    await store.update(c, { addBlockedBy: [a, b] }, 'main')
    expect(await store.update(c, { status: 'in_progress' }, 'w1')).toEqual({ ok: false, error: 'Task #3 is blocked by #1, #2, which must be completed first.' })
    expect(await store.update(a, { status: 'completed' }, 'w1')).toMatchObject({ ok: true, unblocked: [] })
    const done = await store.update(b, { status: 'completed' }, 'w1')
    expect(done).toMatchObject({ ok: true, unblocked: [{ id: '3', subject: 'c' }] })
    expect(await store.update(c, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: true })
  })

  it('reports tasks unblocked by deleting their last open blocker', async () => {
    const [a, b] = [await make('a'), await make('b')]
    await store.update(a, { addBlocks: [b] }, 'main')
    expect(await store.update(a, { status: 'deleted' }, 'main')).toMatchObject({ ok: true, unblocked: [{ id: '2' }] })
  })

  it('merges metadata and removes keys set to null', async () => {
    const id = (await store.create({ subject: 'a', description: 'b', metadata: { keep: 1, drop: 2, gone: null } }, 'main')) as { ok: true; task: { id: string } }
    expect(await task(id.task.id)).toMatchObject({ metadata: { keep: 1, drop: 2 } })
    await store.update(id.task.id, { metadata: { drop: null, added: 'x' } }, 'main')
    expect((await task(id.task.id)).metadata).toEqual({ keep: 1, added: 'x' })
    await store.update(id.task.id, { metadata: { keep: null, added: null } }, 'main')
    expect((await task(id.task.id)).metadata).toBeUndefined()
  })
})

describe('TaskStore with damaged files', () => {
  it('lists the readable tasks and reports the others', async () => {
    await make('a')
    await writeFile(join(dir, '2.json'), '{ not json')
    await writeFile(join(dir, '3.json'), JSON.stringify({ id: '3', subject: 'no status' }))
    await writeFile(join(dir, '4.json'), JSON.stringify({ id: '5', subject: 's', description: 'd', status: 'pending', blocks: [], blockedBy: [] }))
    await writeFile(join(dir, 'notes.txt'), 'ignored')
    // Files written by hand (or by a process that crashed) are seen by the next store to open the list.
    store = new TaskStore(dir)
    const listing = await store.list()
    expect(listing.tasks.map((t) => t.id)).toEqual(['1'])
    expect(listing.problems.map((p) => [p.file.split('/').pop(), p.message.split(' (')[0]])).toEqual([
      ['2.json', 'not JSON'],
      ['3.json', 'not a task'],
      ['4.json', 'its id is 5, not 4'],
    ])
    expect(await store.get('2')).toMatchObject({ ok: false, error: expect.stringMatching(/^Task #2's file cannot be read: not JSON/) })
    expect(await store.update('2', { status: 'completed' }, 'main')).toMatchObject({ ok: false })
    // Ids of damaged files stay taken.
    expect(await make('b')).toBe('5')
  })

  it('counts a damaged blocker as open, so nothing starts early', async () => {
    const [a, b] = [await make('a'), await make('b')]
    await store.update(b, { addBlockedBy: [a] }, 'main')
    await writeFile(join(dir, `${a}.json`), 'truncated{')
    store = new TaskStore(dir)
    expect(await store.update(b, { status: 'in_progress' }, 'w1')).toMatchObject({ ok: false, error: expect.stringMatching(/blocked by #1/) })
  })

  it('keeps unknown keys a newer writer put in a task file', async () => {
    const id = await make('a')
    const file = join(dir, `${id}.json`)
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), team: 'x' }))
    store = new TaskStore(dir)
    await store.update(id, { subject: 'b' }, 'main')
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ subject: 'b', team: 'x' })
  })
})

describe('TaskStore locking and changes', () => {
  it('answers "busy" after its retries when another process holds the lock, and changes nothing', async () => {
    const busy = new TaskStore(dir, { lockPolicy: { retries: 2, minDelayMs: 5, maxDelayMs: 10 } })
    await mkdir(`${dir}.lock`, { recursive: true })
    expect(await busy.create({ subject: 'a', description: 'b' }, 'main')).toMatchObject({ ok: false, error: expect.stringMatching(/busy/) })
    expect(busy.lockStats).toEqual({ acquired: 0, retries: 2 })
    await rm(`${dir}.lock`, { recursive: true })
    expect(await busy.create({ subject: 'a', description: 'b' }, 'main')).toMatchObject({ ok: true, task: { id: '1' } })
  })

  it('sees what another store (another process) changed, through the change token', async () => {
    const other = new TaskStore(dir)
    await make('a')
    expect((await other.list()).tasks.map((t) => t.subject)).toEqual(['a'])
    await other.update('1', { subject: 'renamed' }, 'w2')
    expect((await store.list()).tasks.map((t) => t.subject)).toEqual(['renamed'])
    await other.update('1', { status: 'deleted' }, 'w2')
    expect((await store.list()).tasks).toEqual([])
  })

  it('brings its cache up to date from the journal, and from the files when the journal restarted', async () => {
    for (const journalLimit of [64 * 1024, 120]) {
      const list = taskListDir(root, `journal-${journalLimit}`)
      const reader = new TaskStore(list, { journalLimit })
      const writer = new TaskStore(list, { journalLimit })
      let seed = 7
      const pick = (n: number): string => String(1 + ((seed = (seed * 48271) % 2147483647) % n))
      for (let step = 0; step < 60; step++) {
        const size = (await writer.list()).tasks.length + 3
        const op = step % 6
        if (op === 0 || size < 5) await writer.create({ subject: `t${step}`, description: 'd' }, 'w')
        else if (op === 1) await writer.update(pick(size), { addBlockedBy: [pick(size)] }, 'w')
        else if (op === 2) await writer.update(pick(size), { status: 'in_progress' }, `w${step}`)
        else if (op === 3) await writer.update(pick(size), { status: 'completed' }, 'w')
        else if (op === 4) await writer.update(pick(size), { status: 'deleted' }, 'w')
        else await writer.update(pick(size), { metadata: { step } }, 'w')
        if (step % 2 === 0) expect(await reader.list()).toEqual(await new TaskStore(list).list())
      }
      expect(await reader.list()).toEqual(await new TaskStore(list).list())
    }
  })

  it('never caches a folder whose last change was left half-written', async () => {
    await make('a')
    await writeFile(join(dir, '.version'), 'w-crashed\n')
    const file = join(dir, '1.json')
    expect((await store.list()).tasks[0]?.subject).toBe('a')
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), subject: 'edited' }))
    expect((await store.list()).tasks[0]?.subject).toBe('edited')
  })

  it('serializes concurrent changes of one process without losing any, in the order they were made', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, index) => make(`t${index}`)))
    // One process's calls take the lock in the order they were made.
    expect(ids).toEqual(Array.from({ length: 20 }, (_, index) => String(index + 1)))
    const claims = await Promise.all(Array.from({ length: 10 }, (_, index) => store.update('1', { status: 'in_progress' }, `w${index}`)))
    expect(claims.filter((claim) => claim.ok)).toHaveLength(1)
  })

  it('tells listeners what changed and who changed it', async () => {
    const changes: TaskChange[] = []
    store.onChange((change) => changes.push(change))
    const [a, b] = [await make('a'), await make('b')]
    await store.update(a, { addBlocks: [b] }, 'w1')
    await store.update(a, { status: 'deleted' }, 'w1')
    expect(changes.map((c) => [c.actor, c.changed.map((t) => t.id), c.deleted])).toEqual([
      ['main', ['1'], []],
      ['main', ['2'], []],
      ['w1', ['1', '2'], []],
      ['w1', ['2'], ['1']],
    ])
  })

  it('accepts plain folder names for lists only', () => {
    expect(isValidTaskListName('team-alpha_2.x')).toBe(true)
    for (const bad of ['', '.', '..', 'a/b', '../x', 'a b', 'x'.repeat(129), 'team.lock']) expect(isValidTaskListName(bad)).toBe(false)
    expect(() => taskListDir(root, '../escape')).toThrow(/not a usable task list name/)
  })
})
