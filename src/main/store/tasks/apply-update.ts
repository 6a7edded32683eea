import { openBlockers, readyAmong, wouldCycle, type TaskMap } from './graph'
import { normalizeTaskId, type Task, type TaskStatus } from './task'

/** A change to one task (TaskUpdate's fields). Unset fields stay as they are. */
export interface TaskPatch {
  subject?: string
  description?: string
  activeForm?: string
  /** `deleted` removes the task and every link to it. */
  status?: TaskStatus | 'deleted'
  /** Ids of tasks that cannot start before this one is completed. */
  addBlocks?: string[]
  /** Ids of tasks that must be completed before this one can start. */
  addBlockedBy?: string[]
  /** Assigns the task; an empty string clears the owner. */
  owner?: string
  /** Merged into the task's metadata; a key set to null is removed. */
  metadata?: Record<string, unknown>
}

/** What a patch does to the graph, computed before anything is written. */
export type PatchOutcome =
  | { ok: false; error: string }
  | {
      ok: true
      /** The whole graph after the change. */
      tasks: TaskMap
      /** The task after the change; undefined when it was deleted. */
      task: Task | undefined
      deleted: boolean
      /** Ids whose files must be rewritten, the patched task first. */
      written: string[]
      /** Which fields changed (for the tool's reply). */
      updatedFields: string[]
      /** Pending tasks this change left with no open blocker (it completed or deleted their last one). */
      unblocked: Task[]
    }

/**
 * Applies a patch to a graph, pure: the claim rules (status → in_progress needs no other owner, no
 * completion and no open blocker), symmetric links, no cycles, metadata nulls removed.
 * `actor` is who asks: it becomes the owner of a task it claims without naming one.
 * Contract: never throws; a refused patch changes nothing.
 */
export function applyPatch(tasks: TaskMap, damaged: ReadonlySet<string>, id: string, patch: TaskPatch, actor: string): PatchOutcome {
  const current = tasks.get(id)
  if (!current) return { ok: false, error: damaged.has(id) ? `Task #${id}'s file cannot be read, so it cannot be changed.` : `No task #${id}.` }
  const next: TaskMap = new Map(tasks)
  const written = new Set<string>([id])
  const put = (task: Task): void => {
    next.set(task.id, task)
    written.add(task.id)
  }
  if (patch.status === 'deleted') return deleteTask(next, current, put, written)

  const fields: string[] = []
  let task: Task = { ...current }
  for (const key of ['subject', 'description', 'activeForm'] as const) {
    const value = patch[key]
    if (value !== undefined && value !== task[key]) {
      task[key] = value
      fields.push(key)
    }
  }
  if (patch.owner !== undefined) {
    const owner = patch.owner.trim() || undefined
    if (owner !== task.owner) {
      task.owner = owner
      fields.push('owner')
    }
  }
  if (patch.metadata !== undefined) {
    task.metadata = mergeMetadata(task.metadata, patch.metadata)
    fields.push('metadata')
  }
  put(task)

  const linked = addLinks(next, damaged, id, patch, put)
  if (typeof linked === 'string') return { ok: false, error: linked }
  fields.push(...linked)
  task = next.get(id)!

  let unblocked: Task[] = []
  if (patch.status === 'in_progress') {
    const claimant = patch.owner?.trim() || actor
    const refused = claimRefusal(current, task, claimant, next)
    if (refused) return { ok: false, error: refused }
    if (task.owner !== claimant) fields.push('owner')
    task = { ...task, owner: claimant }
  }
  if (patch.status !== undefined && patch.status !== task.status) {
    task = { ...task, status: patch.status }
    fields.push('status')
  }
  put(task)
  if (patch.status === 'completed' && current.status !== 'completed') unblocked = readyAmong(task.blocks, next)
  return { ok: true, tasks: next, task, deleted: false, written: [...written], updatedFields: [...new Set(fields)], unblocked }
}

/** Why `claimant` may not start the task (judged on the state before the patch), if it may not. */
function claimRefusal(before: Task, after: Task, claimant: string, tasks: TaskMap): string | undefined {
  if (before.status === 'completed') return `Task #${before.id} is already completed; set its status to pending first to reopen it.`
  if (before.owner && before.owner !== claimant) {
    const doing = before.status === 'in_progress' ? 'is already in progress' : 'is assigned'
    return `Task #${before.id} ${doing} (owner: ${before.owner}); pick another task.`
  }
  const open = openBlockers(after, tasks)
  if (open.length > 0) return `Task #${before.id} is blocked by ${open.map((blocker) => `#${blocker}`).join(', ')}, which must be completed first.`
  return undefined
}

/** Adds the patch's links in both directions; a message when an id is bad or a link closes a cycle. */
function addLinks(tasks: TaskMap, damaged: ReadonlySet<string>, id: string, patch: TaskPatch, put: (task: Task) => void): string[] | string {
  const fields: string[] = []
  const link = (blocker: string, blocked: string): void => {
    const a = tasks.get(blocker)!
    const b = tasks.get(blocked)!
    put({ ...a, blocks: [...a.blocks, blocked] })
    put({ ...b, blockedBy: [...b.blockedBy, blocker] })
  }
  for (const [list, field] of [
    [patch.addBlocks, 'blocks'],
    [patch.addBlockedBy, 'blockedBy'],
  ] as const) {
    for (const raw of list ?? []) {
      const other = normalizeTaskId(raw)
      if (other === undefined) return `"${raw}" is not a task id.`
      if (other === id) return `Task #${id} cannot block itself.`
      if (!tasks.has(other)) return damaged.has(other) ? `Task #${other}'s file cannot be read, so it cannot be linked.` : `No task #${other}.`
      const [blocker, blocked] = field === 'blocks' ? [id, other] : [other, id]
      if (tasks.get(blocker)!.blocks.includes(blocked)) continue
      if (wouldCycle(tasks, blocker, blocked)) return `#${blocker} cannot block #${blocked}: #${blocked} already leads to #${blocker}, so neither could ever start.`
      link(blocker, blocked)
      fields.push(field)
    }
  }
  return fields
}

function deleteTask(next: TaskMap, current: Task, put: (task: Task) => void, written: Set<string>): PatchOutcome {
  next.delete(current.id)
  for (const otherId of new Set([...current.blocks, ...current.blockedBy])) {
    const other = next.get(otherId)
    if (other) put({ ...other, blocks: other.blocks.filter((x) => x !== current.id), blockedBy: other.blockedBy.filter((x) => x !== current.id) })
  }
  const unblocked = current.status === 'completed' ? [] : readyAmong(current.blocks, next)
  return { ok: true, tasks: next, task: undefined, deleted: true, written: [...written], updatedFields: ['status'], unblocked }
}

function mergeMetadata(base: Record<string, unknown> | undefined, patch: Record<string, unknown>): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key]
    else merged[key] = value
  }
  return Object.keys(merged).length > 0 ? merged : undefined
}
