import type { Task } from './task'

/**
 * Pure rules of the dependency graph. An edge "A blocks B" is written twice, in A's `blocks` and in
 * B's `blockedBy`; a crash between the two writes must not break the graph, so readers take the
 * union of both sides ({@link normalizeGraph}) and the store always writes both.
 */

/** Tasks by id. */
export type TaskMap = Map<string, Task>

/**
 * Makes `blocks`/`blockedBy` symmetric (the union of what either side says), drops links to itself
 * and to tasks that no longer exist, and sorts ids numerically. Links to `damaged` ids (a file that
 * exists but cannot be read) are kept: such a blocker counts as open, so nothing starts early.
 * Contract: returns new objects; the input is not changed.
 */
export function normalizeGraph(tasks: readonly Task[], damaged: ReadonlySet<string> = new Set()): TaskMap {
  const blocks = new Map<string, Set<string>>()
  const blockedBy = new Map<string, Set<string>>()
  for (const task of tasks) {
    blocks.set(task.id, new Set())
    blockedBy.set(task.id, new Set())
  }
  const link = (blocker: string, blocked: string): void => {
    if (blocker === blocked) return
    blocks.get(blocker)?.add(blocked)
    blockedBy.get(blocked)?.add(blocker)
  }
  const known = (id: string): boolean => blocks.has(id) || damaged.has(id)
  for (const task of tasks) {
    for (const other of task.blocks) if (known(other)) link(task.id, other)
    for (const other of task.blockedBy) if (known(other)) link(other, task.id)
  }
  const out: TaskMap = new Map()
  for (const task of [...tasks].sort(byId)) {
    out.set(task.id, { ...task, blocks: sortIds(blocks.get(task.id)!), blockedBy: sortIds(blockedBy.get(task.id)!) })
  }
  return out
}

/**
 * The tasks that still hold this one back: blockers not completed. A blocker missing from the map
 * after {@link normalizeGraph} is a damaged file, and counts as open (fail closed).
 */
export function openBlockers(task: Task, tasks: TaskMap): string[] {
  return task.blockedBy.filter((id) => tasks.get(id)?.status !== 'completed')
}

/** Whether "blocker blocks blocked" would close a cycle (blocked already leads to blocker). */
export function wouldCycle(tasks: TaskMap, blocker: string, blocked: string): boolean {
  if (blocker === blocked) return true
  const seen = new Set<string>()
  const stack = [blocked]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (id === blocker) return true
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(tasks.get(id)?.blocks ?? []))
  }
  return false
}

/** Of `candidates`, the pending tasks nothing holds back any more. */
export function readyAmong(candidates: readonly string[], tasks: TaskMap): Task[] {
  const ready: Task[] = []
  for (const id of candidates) {
    const task = tasks.get(id)
    if (task && task.status === 'pending' && openBlockers(task, tasks).length === 0) ready.push(task)
  }
  return ready
}

/** Numeric order of ids ("2" before "10"). */
export function byId(a: Pick<Task, 'id'>, b: Pick<Task, 'id'>): number {
  return Number(a.id) - Number(b.id)
}

function sortIds(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => Number(a) - Number(b))
}
