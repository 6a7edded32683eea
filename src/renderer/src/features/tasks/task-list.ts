import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { compareTaskOrder, type TaskItem } from '../../../../shared/protocol/task'

/** A `task_update` agent event: the changed tasks as they are now, and the deleted ids. */
export type TaskUpdate = Extract<AgentEvent, { type: 'task_update' }>

/** A task file the host could not read (the list is not whole). */
export interface TaskProblem {
  file: string
  message: string
}

/**
 * One session's task list as the panel shows it. The host's listing is the truth when it
 * arrives; `task_update` events keep it live. Events that arrive while a listing is on its way are
 * kept and replayed onto it, since the listing may have been read before they happened.
 */
export interface TaskListView {
  listId: string | null
  /** In list order (the user's, else by id). */
  tasks: TaskItem[]
  problems: TaskProblem[]
  /** A listing has arrived at least once. */
  loaded: boolean
  /** Events received since the listing in flight was asked for; undefined when none is. */
  replay?: TaskUpdate[]
}

export const emptyTaskList: TaskListView = { listId: null, tasks: [], problems: [], loaded: false }

/** A listing was asked for: events from now on are kept for it. */
export function loadStarted(view: TaskListView): TaskListView {
  return { ...view, replay: [] }
}

/** The listing arrived: it replaces the list, then the events kept meanwhile are applied again. */
export function loadFinished(view: TaskListView, listing: { listId: string; tasks: readonly TaskItem[]; problems: readonly TaskProblem[] }): TaskListView {
  const fresh: TaskListView = { listId: listing.listId, tasks: [...listing.tasks].sort(compareTaskOrder), problems: [...listing.problems], loaded: true }
  return (view.replay ?? []).reduce(applyChanges, fresh)
}

/** The listing failed: keep what is shown, stop keeping events. */
export function loadFailed(view: TaskListView): TaskListView {
  const { replay: _dropped, ...rest } = view
  return rest
}

/** An event folded into the list (and kept for a listing in flight). Pure. */
export function applyTaskUpdate(view: TaskListView, event: TaskUpdate): TaskListView {
  const next = applyChanges(view, event)
  return view.replay ? { ...next, replay: [...view.replay, event] } : next
}

function applyChanges(view: TaskListView, event: TaskUpdate): TaskListView {
  const changed = new Map(event.tasks.map((task) => [task.id, task]))
  const gone = new Set(event.deleted)
  const kept = view.tasks.filter((task) => !gone.has(task.id) && !changed.has(task.id))
  return { ...view, listId: event.listId, tasks: [...kept, ...changed.values()].filter((task) => !gone.has(task.id)).sort(compareTaskOrder) }
}

/**
 * What the agent is doing now, for the status bar: the in-progress task of the session's main
 * agent (`main`, or `main@…` on a shared list), else any in-progress task; its `activeForm`, or its
 * subject when it has none.
 */
export function currentActivity(tasks: readonly TaskItem[]): string | undefined {
  const running = tasks.filter((task) => task.status === 'in_progress')
  const mine = running.find((task) => task.owner === 'main' || task.owner?.startsWith('main@')) ?? running[0]
  if (!mine) return undefined
  return mine.activeForm?.trim() || mine.subject
}

/** Of a task's blockers, the ones not completed yet (an id the list does not hold counts as open). */
export function openBlockers(task: TaskItem, byId: ReadonlyMap<string, TaskItem>): string[] {
  return task.blockedBy.filter((id) => byId.get(id)?.status !== 'completed')
}

/** "3 of 5 done". */
export function progress(tasks: readonly TaskItem[]): { done: number; total: number } {
  return { done: tasks.filter((task) => task.status === 'completed').length, total: tasks.length }
}

/** The task a "move up" or "move down" puts this one before (undefined: to the end); null when it cannot move. */
export function moveTarget(tasks: readonly TaskItem[], id: string, direction: 'up' | 'down'): { beforeId: string | undefined } | null {
  const index = tasks.findIndex((task) => task.id === id)
  if (index < 0) return null
  if (direction === 'up') return index === 0 ? null : { beforeId: tasks[index - 1]!.id }
  if (index === tasks.length - 1) return null
  return { beforeId: tasks[index + 2]?.id }
}

/** Words for a status. */
export function statusLabel(status: TaskItem['status']): string {
  return status === 'in_progress' ? 'In progress' : status === 'completed' ? 'Completed' : 'Pending'
}
