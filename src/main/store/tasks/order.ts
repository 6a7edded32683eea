import { compareTaskOrder, taskPosition } from '../../../shared/protocol/task-order'
import { normalizeTaskId, type Task } from './task'
import type { TaskMap } from './graph'

/**
 * The user's order of a task list, pure. A task sorts by its `position`, else by its id, so a list
 * nobody reordered reads in id order (as Claude Code's do). Moving a task gives it a position
 * between its new neighbours, which writes one file; when no number fits between them any more,
 * every task is numbered afresh in the new order.
 */

/** The tasks in list order. */
export function inListOrder(tasks: Iterable<Task>): Task[] {
  return [...tasks].sort(compareTaskOrder)
}

/**
 * The position a new task gets: after every other, or none while nobody has reordered the list
 * (its id already puts it last).
 */
export function positionForNew(tasks: Iterable<Task>): number | undefined {
  const all = [...tasks]
  if (!all.some((task) => task.position !== undefined)) return undefined
  return Math.floor(Math.max(...all.map(taskPosition))) + 1
}

/** The tasks to rewrite so that `id` stands right before `beforeId` (at the end without one). */
export function moveTask(tasks: TaskMap, rawId: string, rawBefore: string | undefined): { ok: true; written: Task[] } | { ok: false; error: string } {
  const id = normalizeTaskId(rawId)
  if (id === undefined) return { ok: false, error: `"${rawId}" is not a task id.` }
  const moving = tasks.get(id)
  if (!moving) return { ok: false, error: `No task #${id}.` }
  const before = rawBefore === undefined ? undefined : normalizeTaskId(rawBefore)
  if (rawBefore !== undefined && before === undefined) return { ok: false, error: `"${rawBefore}" is not a task id.` }
  if (before === id) return { ok: true, written: [] }
  if (before !== undefined && !tasks.has(before)) return { ok: false, error: `No task #${before}.` }

  const others = inListOrder([...tasks.values()].filter((task) => task.id !== id))
  const index = before === undefined ? others.length : others.findIndex((task) => task.id === before)
  if (inListOrder(tasks.values()).indexOf(moving) === index) return { ok: true, written: [] }
  const previous = others[index - 1]
  const next = others[index]
  const low = previous === undefined ? undefined : taskPosition(previous)
  const high = next === undefined ? undefined : taskPosition(next)
  const position = low === undefined ? (high === undefined ? taskPosition(moving) : high - 1) : high === undefined ? low + 1 : (low + high) / 2
  const fits = (low === undefined || position > low) && (high === undefined || position < high)
  if (fits && Number.isFinite(position)) return { ok: true, written: [{ ...moving, position }] }
  // No number fits between the neighbours: number every task afresh, in the new order.
  const renumbered = [...others.slice(0, index), moving, ...others.slice(index)]
  return { ok: true, written: renumbered.map((task, at) => ({ ...task, position: at + 1 })).filter((task, at) => renumbered[at]!.position !== task.position) }
}
