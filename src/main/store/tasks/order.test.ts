import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { normalizeGraph } from './graph'
import { inListOrder, moveTask, positionForNew } from './order'
import type { Task } from './task'
import { taskListDir, TaskStore, type TaskChange } from './task-store'

const task = (id: string, position?: number): Task => ({ id, subject: `task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...(position !== undefined && { position }) })
const graph = (...tasks: Task[]) => normalizeGraph(tasks)
const ids = (tasks: Iterable<Task>) => [...tasks].map((t) => t.id)

/** The order after applying a move's writes. */
function orderAfter(tasks: Task[], id: string, before: string | undefined): string[] {
  const map = graph(...tasks)
  const moved = moveTask(map, id, before)
  if (!moved.ok) throw new Error(moved.error)
  for (const written of moved.written) map.set(written.id, written)
  return ids(inListOrder(map.values()))
}

describe('list order (pure)', () => {
  it('is by id until someone reorders, then by position', () => {
    expect(ids(inListOrder([task('10'), task('2'), task('1')]))).toEqual(['1', '2', '10'])
    expect(ids(inListOrder([task('1', 5), task('2'), task('3', 0.5)]))).toEqual(['3', '2', '1'])
  })

  it('moves a task before another, to the top and to the end, writing one file', () => {
    const tasks = [task('1'), task('2'), task('3'), task('4')]
    expect(orderAfter(tasks, '4', '2')).toEqual(['1', '4', '2', '3'])
    expect(orderAfter(tasks, '3', '1')).toEqual(['3', '1', '2', '4'])
    expect(orderAfter(tasks, '1', undefined)).toEqual(['2', '3', '4', '1'])
    expect((moveTask(graph(...tasks), '4', '2') as { written: Task[] }).written).toHaveLength(1)
  })

  it('writes nothing when the task is already there', () => {
    expect(moveTask(graph(task('1'), task('2')), '1', '2')).toEqual({ ok: true, written: [] })
    expect(moveTask(graph(task('1'), task('2')), '2', undefined)).toEqual({ ok: true, written: [] })
    expect(moveTask(graph(task('1')), '1', '1')).toEqual({ ok: true, written: [] })
  })

  it('numbers every task afresh when no number fits between the neighbours', () => {
    const tight = [task('1', 1), task('2', 1 + Number.EPSILON), task('3', 3)]
    const moved = moveTask(graph(...tight), '3', '2')
    expect(moved.ok && moved.written.map((t) => [t.id, t.position])).toEqual([
      ['3', 2],
      ['2', 3],
    ])
    expect(orderAfter(tight, '3', '2')).toEqual(['1', '3', '2'])
  })

  it('refuses ids that are not tasks', () => {
    expect(moveTask(graph(task('1')), '7', undefined)).toEqual({ ok: false, error: 'No task #7.' })
    expect(moveTask(graph(task('1')), '1', '../x')).toEqual({ ok: false, error: '"../x" is not a task id.' })
  })

  it('puts a new task last, once positions exist', () => {
    expect(positionForNew([task('1'), task('2')])).toBeUndefined()
    expect(positionForNew([task('1', 7.5), task('2')])).toBe(8)
  })
})

describe('TaskStore.move', () => {
  let root: string
  let store: TaskStore
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'sous-task-order-'))
    store = new TaskStore(taskListDir(root, 'list'))
    for (const subject of ['a', 'b', 'c']) await store.create({ subject, description: '' }, 'main')
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('keeps the order on disk, tells listeners, and new tasks go last', async () => {
    const changes: TaskChange[] = []
    store.onChange((change) => changes.push(change))
    expect(await store.move('3', '1', 'user')).toEqual({ ok: true, moved: true })
    expect(changes).toEqual([{ changed: [expect.objectContaining({ id: '3', position: 0 })], deleted: [], actor: 'user' }])
    await store.create({ subject: 'd', description: '' }, 'main')
    // Another store (another process, or after a restart) reads the same order.
    const fresh = new TaskStore(store.dir)
    expect((await fresh.list()).tasks.map((t) => t.subject)).toEqual(['c', 'a', 'b', 'd'])
    expect(JSON.parse(await readFile(join(store.dir, '3.json'), 'utf8'))).toMatchObject({ id: '3', position: 0 })
  })

  it('a move changes no status, owner or link', async () => {
    await store.update('2', { addBlockedBy: ['1'], status: undefined, owner: 'helper' }, 'main')
    await store.move('2', '1', 'user')
    const listed = (await store.list()).tasks
    expect(listed.map((t) => t.id)).toEqual(['2', '1', '3'])
    expect(listed[0]).toMatchObject({ owner: 'helper', blockedBy: ['1'], status: 'pending' })
  })

  it('refuses an unknown task and changes nothing', async () => {
    expect(await store.move('9', undefined, 'user')).toEqual({ ok: false, error: 'No task #9.' })
    expect((await store.list()).tasks.map((t) => t.id)).toEqual(['1', '2', '3'])
  })
})
