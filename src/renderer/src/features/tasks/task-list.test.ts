import { describe, expect, it } from 'vitest'
import type { TaskItem } from '../../../../shared/protocol/task'
import { applyTaskUpdate, currentActivity, emptyTaskList, loadFailed, loadFinished, loadStarted, moveTarget, openBlockers, progress, type TaskUpdate } from './task-list'

const task = (id: string, extra: Partial<TaskItem> = {}): TaskItem => ({ id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...extra })
const update = (tasks: TaskItem[], deleted: string[] = [], actor = 'main'): TaskUpdate => ({ type: 'task_update', sessionId: 's', agentId: 'main', listId: 's', tasks, deleted, actor })
const ids = (view: { tasks: TaskItem[] }) => view.tasks.map((t) => t.id)

describe('the task panel store', () => {
  it('folds task_update events: new and changed tasks, deletions, in list order', () => {
    let view = applyTaskUpdate(emptyTaskList, update([task('2'), task('1')]))
    expect(ids(view)).toEqual(['1', '2'])
    view = applyTaskUpdate(view, update([task('1', { status: 'completed' }), task('3')]))
    expect(view.tasks.map((t) => [t.id, t.status])).toEqual([
      ['1', 'completed'],
      ['2', 'pending'],
      ['3', 'pending'],
    ])
    view = applyTaskUpdate(view, update([task('3', { position: 0.5 })], [], 'user'))
    expect(ids(view)).toEqual(['3', '1', '2'])
    view = applyTaskUpdate(view, update([task('2', { blockedBy: [] })], ['1']))
    expect(ids(view)).toEqual(['3', '2'])
    expect(view.listId).toBe('s')
  })

  it('a listing replaces the list, and events that came while it was on its way are applied again', () => {
    let view = applyTaskUpdate(emptyTaskList, update([task('1'), task('9')]))
    view = loadStarted(view)
    // The host read the list before task 2 was created and task 1 completed…
    view = applyTaskUpdate(view, update([task('2')]))
    view = applyTaskUpdate(view, update([task('1', { status: 'completed' })]))
    view = loadFinished(view, { listId: 'shared', tasks: [task('1')], problems: [{ file: '/x/5.json', message: 'not JSON' }] })
    // …so the listing alone would lose them; task 9 (deleted meanwhile on disk) is gone.
    expect(view.tasks.map((t) => [t.id, t.status])).toEqual([
      ['1', 'completed'],
      ['2', 'pending'],
    ])
    expect(view).toMatchObject({ loaded: true, problems: [{ file: '/x/5.json' }] })
    expect(view.replay).toBeUndefined()
    // Later events are not kept.
    expect(applyTaskUpdate(view, update([task('3')])).replay).toBeUndefined()
  })

  it('a failed listing keeps what is shown', () => {
    const view = loadFailed(loadStarted(applyTaskUpdate(emptyTaskList, update([task('1')]))))
    expect(ids(view)).toEqual(['1'])
    expect(view.replay).toBeUndefined()
  })

  it("the status bar shows the main agent's task in progress, by its active form", () => {
    expect(currentActivity([task('1')])).toBeUndefined()
    expect(currentActivity([task('1', { status: 'in_progress', owner: 'helper', activeForm: 'Helping' }), task('2', { status: 'in_progress', owner: 'main@1a2b3c4d', activeForm: 'Running the tests' })])).toBe('Running the tests')
    expect(currentActivity([task('1', { status: 'in_progress', owner: 'helper', activeForm: '  ' })])).toBe('Task 1')
  })

  it('blockers, progress and where a move puts a task', () => {
    const tasks = [task('1', { status: 'completed' }), task('2'), task('3', { blockedBy: ['1', '2', '7'] })]
    const byId = new Map(tasks.map((t) => [t.id, t]))
    expect(openBlockers(tasks[2]!, byId)).toEqual(['2', '7'])
    expect(progress(tasks)).toEqual({ done: 1, total: 3 })
    expect(moveTarget(tasks, '2', 'up')).toEqual({ beforeId: '1' })
    expect(moveTarget(tasks, '1', 'up')).toBeNull()
    expect(moveTarget(tasks, '1', 'down')).toEqual({ beforeId: '3' })
    expect(moveTarget(tasks, '2', 'down')).toEqual({ beforeId: undefined })
    expect(moveTarget(tasks, '3', 'down')).toBeNull()
  })
})
