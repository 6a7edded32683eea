import { describe, expect, it } from 'vitest'
import type { Task } from '../store/tasks/task'
import { TaskReminders } from './task-reminders'

const task = (id: string, extra: Partial<Task> = {}): Task => ({ id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...extra })

function setup(initial: Task[] = []) {
  let tasks = initial
  const reminders = new TaskReminders({ tasks: () => tasks, owner: 'main', every: 3 })
  return { reminders, set: (next: Task[]) => (tasks = next) }
}

/** Which requests (1-based) carried a reminder, over `count` requests. */
function dueAt(reminders: TaskReminders, count: number, between?: (request: number) => void): number[] {
  const at: number[] = []
  for (let request = 1; request <= count; request++) {
    if (reminders.due().length > 0) at.push(request)
    between?.(request)
  }
  return at
}

describe('task reminders', () => {
  it('nudge about open tasks after `every` requests without a task tool, then every `every` requests', () => {
    const { reminders } = setup([task('1', { status: 'in_progress', owner: 'main' }), task('2'), task('3', { status: 'completed' })])
    expect(dueAt(reminders, 10)).toEqual([4, 8])
    const { reminders: fresh } = setup([task('1')])
    expect(dueAt(fresh, 3)).toEqual([])
    expect(fresh.due()).toEqual([expect.stringContaining('#1 [pending] Task 1')])
  })

  it('a task tool resets the count; no open task, no nudge', () => {
    const { reminders } = setup([task('1')])
    expect(dueAt(reminders, 8, (request) => request % 2 === 0 && reminders.touched())).toEqual([])
    const { reminders: done } = setup([task('1', { status: 'completed' })])
    expect(dueAt(done, 10)).toEqual([])
  })

  it('a turn that ends with its own task in progress is told with the next request, once', () => {
    const { reminders, set } = setup([task('1', { status: 'in_progress', owner: 'main' }), task('2', { status: 'in_progress', owner: 'helper' })])
    reminders.touched()
    reminders.turnEnded()
    expect(reminders.due()).toEqual([expect.stringMatching(/^Your last turn ended with task #1 "Task 1" still in progress\./)])
    expect(reminders.due()).toEqual([])
    // Completed meanwhile (the user ticked it in the panel): nothing to say.
    reminders.turnEnded()
    set([task('1', { status: 'completed', owner: 'main' })])
    expect(reminders.due()).toEqual([])
  })

  it('a list that cannot be read says nothing, and never throws', () => {
    const reminders = new TaskReminders({ tasks: () => { throw new Error('EACCES') }, owner: 'main', every: 1 })
    expect(dueAt(reminders, 5)).toEqual([])
  })
})
