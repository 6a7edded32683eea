import { join } from 'node:path'
import { applyPatch, type TaskPatch } from './apply-update'
import { ListLock, TaskListBusyError, type LockPolicy, type LockStats } from './list-lock'
import { openBlockers } from './graph'
import { inListOrder, moveTask, positionForNew } from './order'
import { TaskFolder } from './task-folder'
import { readHighWaterMark, removeTask, writeHighWaterMark, writeTask } from './task-files'
import { normalizeTaskId, type Task, type TaskFileProblem } from './task'

export type { TaskPatch }

/** What TaskCreate gives. */
export interface NewTask {
  subject: string
  description: string
  activeForm?: string
  metadata?: Record<string, unknown>
}

/** A listing: the readable tasks (ids ascending) and the files that could not be read. */
export interface TaskListing {
  tasks: Task[]
  problems: TaskFileProblem[]
}

/** The outcome of an update. A refusal (`ok: false`) changed nothing. */
export type TaskUpdateResult =
  | { ok: false; error: string }
  | { ok: true; task: Task | undefined; deleted: boolean; updatedFields: string[]; unblocked: Task[] }

/** What changed in the list, for whoever follows it (the UI's task panel). */
export interface TaskChange {
  /** The tasks as they are now (every task whose file was written). */
  changed: Task[]
  /** Ids of deleted tasks. */
  deleted: string[]
  /** Who made the change (an agent id or owner name). */
  actor: string
}

/**
 * A list name becomes a folder name: letters, digits, `.`, `_`, `-`; never `.` or `..` alone, and
 * never ending in `.lock` (the name of a list's lock beside its folder).
 */
export function isValidTaskListName(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(name) && !/^\.+$/.test(name) && !name.endsWith('.lock')
}

/** `<projectDataDir>/tasks/<list>`; throws for a name that is not a plain folder name. */
export function taskListDir(projectDataDir: string, listName: string): string {
  if (!isValidTaskListName(listName)) throw new Error(`"${listName}" is not a usable task list name (letters, digits, ".", "_" and "-" only).`)
  return join(projectDataDir, 'tasks', listName)
}

/**
 * One task list on disk, shared by every agent (and process) that opens the same folder. Every
 * change is a read-check-write under the list's lock, so concurrent claims from many processes
 * give each task to exactly one of them; ids come from a high-water mark and are never reused.
 * Readers take no lock: each file is replaced atomically.
 */
export class TaskStore {
  private readonly lock: ListLock
  private readonly folder: TaskFolder
  private readonly listeners = new Set<(change: TaskChange) => void>()

  constructor(
    /** The list folder (see {@link taskListDir}). */
    readonly dir: string,
    options: { lockPolicy?: LockPolicy; journalLimit?: number } = {},
  ) {
    this.lock = new ListLock(dir, options.lockPolicy)
    this.folder = new TaskFolder(dir, options.journalLimit)
  }

  /** Lock acquisitions and retries so far (this process's view). */
  get lockStats(): LockStats {
    return { ...this.lock.stats }
  }

  /** Creates a pending task with the next id. */
  async create(input: NewTask, actor: string): Promise<{ ok: true; task: Task } | { ok: false; error: string }> {
    return this.locked<{ ok: true; task: Task }>(async () => {
      const state = this.folder.read()
      const mark = await readHighWaterMark(this.dir)
      const id = String(Math.max(mark, ...state.fileIds) + 1)
      const task: Task = { id, subject: input.subject, description: input.description, status: 'pending', blocks: [], blockedBy: [] }
      if (input.activeForm) task.activeForm = input.activeForm
      if (input.metadata && Object.keys(input.metadata).length > 0) task.metadata = withoutNulls(input.metadata)
      const position = positionForNew(state.tasks.values())
      if (position !== undefined) task.position = position
      await this.folder.write(state, { written: [task], removed: [] }, async () => {
        // The mark first: a crash after it burns an id, never hands one out twice.
        await writeHighWaterMark(this.dir, Number(id))
        await writeTask(this.dir, task)
      })
      return { result: { ok: true, task }, change: { changed: [task], deleted: [], actor } }
    })
  }

  /**
   * Every readable task, in list order (the user's, else by id; see `order.ts`), and every file that
   * could not be read. Never throws for a bad file. Treat the tasks as read-only.
   */
  async list(): Promise<TaskListing> {
    return this.listNow()
  }

  /**
   * {@link list}, synchronously: for a reminder deciding, as a request goes out, whether the list
   * needs the model's attention. A read of the cached state (the change token only, most times).
   */
  listNow(): TaskListing {
    const state = this.folder.read()
    return { tasks: inListOrder(state.tasks.values()), problems: state.problems }
  }

  /** One task with its links (and the listing it was read from, to judge its blockers). */
  async get(rawId: string): Promise<{ ok: true; task: Task; all: Task[] } | { ok: false; error: string }> {
    const id = normalizeTaskId(rawId)
    if (id === undefined) return { ok: false, error: `"${rawId}" is not a task id.` }
    const state = this.folder.read()
    const task = state.tasks.get(id)
    if (task) return { ok: true, task, all: [...state.tasks.values()] }
    const problem = state.problems.find((p) => p.file.endsWith(`/${id}.json`))
    return { ok: false, error: problem ? `Task #${id}'s file cannot be read: ${problem.message}.` : `No task #${id}.` }
  }

  /**
   * Changes a task under the lock. Claiming (status → in_progress) is refused when another agent
   * owns the task, when it is completed, or while a task it is blocked by is open.
   */
  async update(rawId: string, patch: TaskPatch, actor: string): Promise<TaskUpdateResult> {
    const id = normalizeTaskId(rawId)
    if (id === undefined) return { ok: false, error: `"${rawId}" is not a task id.` }
    return this.locked<TaskUpdateResult>(async () => {
      const state = this.folder.read()
      const outcome = applyPatch(state.tasks, state.damaged, id, patch, actor)
      if (!outcome.ok) return { result: outcome }
      const rewritten = outcome.written.filter((w) => !(outcome.deleted && w === id)).map((w) => outcome.tasks.get(w)!)
      await this.folder.write(state, { written: rewritten, removed: outcome.deleted ? [id] : [] }, async () => {
        // The task itself first (or its removal), then its neighbours: readers take the union of both
        // sides of a link, so a crash between the writes leaves no half link behind.
        if (outcome.deleted) await removeTask(this.dir, id)
        for (const task of rewritten) await writeTask(this.dir, task)
      })
      const result: TaskUpdateResult = { ok: true, task: outcome.task, deleted: outcome.deleted, updatedFields: outcome.updatedFields, unblocked: outcome.unblocked }
      return { result, change: { changed: rewritten, deleted: outcome.deleted ? [id] : [], actor } }
    })
  }

  /**
   * The first task `owner` may take up by itself (an idle teammate): pending, unowned and unblocked,
   * in list order, claimed for `owner` under the lock — unless `owner` already holds an open task
   * (one not completed), which it must finish first. Undefined when there is nothing to claim (or
   * the list is busy: the next look tries again).
   */
  async claimNext(owner: string): Promise<Task | undefined> {
    const claimed = await this.locked<{ ok: true; task: Task | undefined }>(async () => {
      const state = this.folder.read()
      const tasks = inListOrder(state.tasks.values())
      if (tasks.some((task) => task.owner === owner && task.status !== 'completed')) return { result: { ok: true, task: undefined } }
      const candidate = tasks.find((task) => task.status === 'pending' && !task.owner && openBlockers(task, state.tasks).length === 0)
      if (!candidate) return { result: { ok: true, task: undefined } }
      const outcome = applyPatch(state.tasks, state.damaged, candidate.id, { status: 'in_progress', owner }, owner)
      if (!outcome.ok) return { result: { ok: true, task: undefined } }
      const written = outcome.written.map((id) => outcome.tasks.get(id)!)
      await this.folder.write(state, { written, removed: [] }, async () => {
        for (const task of written) await writeTask(this.dir, task)
      })
      return { result: { ok: true, task: outcome.task }, change: { changed: written, deleted: [], actor: owner } }
    })
    return claimed.ok ? claimed.task : undefined
  }

  /**
   * Puts a task right before `beforeId` in the list's order (at the end without one): the user's
   * priorities, which the task panel shows and TaskList follows. Changes no status, owner or link.
   */
  async move(rawId: string, beforeId: string | undefined, actor: string): Promise<{ ok: true; moved: boolean } | { ok: false; error: string }> {
    return this.locked<{ ok: true; moved: boolean } | { ok: false; error: string }>(async () => {
      const state = this.folder.read()
      const outcome = moveTask(state.tasks, rawId, beforeId)
      if (!outcome.ok) return { result: outcome }
      if (outcome.written.length === 0) return { result: { ok: true, moved: false } }
      await this.folder.write(state, { written: outcome.written, removed: [] }, async () => {
        for (const task of outcome.written) await writeTask(this.dir, task)
      })
      return { result: { ok: true, moved: true }, change: { changed: outcome.written, deleted: [], actor } }
    })
  }

  /** Follows changes made through this store; returns an unsubscribe function. */
  onChange(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Runs a change under the list lock, then tells listeners; a busy list is a refusal, not a throw. */
  private async locked<R extends { ok: boolean }>(critical: () => Promise<{ result: R; change?: TaskChange }>): Promise<R | { ok: false; error: string }> {
    let outcome: { result: R; change?: TaskChange }
    try {
      outcome = await this.lock.run(critical)
    } catch (error) {
      if (error instanceof TaskListBusyError) return { ok: false, error: error.message }
      throw error
    }
    if (outcome.change) for (const listener of this.listeners) safeCall(() => listener(outcome.change!))
    return outcome.result
  }
}

function withoutNulls(metadata: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== null))
  return Object.keys(kept).length > 0 ? kept : undefined
}

function safeCall(fn: () => void): void {
  try {
    fn()
  } catch {
    // A listener's failure is its own business; the change is on disk.
  }
}
