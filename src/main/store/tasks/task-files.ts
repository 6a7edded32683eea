import { readdirSync, readFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import { normalizeGraph, type TaskMap } from './graph'
import { parseTaskFile, serializeTask, TASK_FILE, type Task, type TaskFileProblem } from './task'

/**
 * The files of one task-list folder: `<id>.json` per task and `.highwatermark` (the highest id
 * ever handed out, so ids survive deletions). Reading never throws for a bad task file: it becomes
 * a problem entry. (`task-folder.ts` keeps the folder's state between reads.)
 */

/** What one task file holds: a task, or why it cannot be read. */
export type TaskEntry = { task: Task } | { problem: TaskFileProblem }

/** Everything a folder holds, as one consistent graph. */
export interface FolderState {
  tasks: TaskMap
  problems: TaskFileProblem[]
  /** Ids whose file exists but cannot be read (they still count as taken, and as open blockers). */
  damaged: Set<string>
  /** Every id that has a file, readable or not. */
  fileIds: number[]
  /** The files as read (tasks before the links are made symmetric), by id. */
  entries: ReadonlyMap<string, TaskEntry>
}

const HIGH_WATER_MARK = '.highwatermark'

/** Reads every task file of a folder (synchronous: several times faster than a thousand async reads). */
export function readAllEntries(dir: string): Map<string, TaskEntry> {
  const entries = new Map<string, TaskEntry>()
  for (const name of taskFileNames(dir)) {
    const id = TASK_FILE.exec(name)![1]!
    const entry = readEntry(dir, id)
    if (entry) entries.set(id, entry)
  }
  return entries
}

/** One task file; undefined when it does not exist (deleted meanwhile). */
export function readEntry(dir: string, id: string): TaskEntry | undefined {
  const file = join(dir, `${id}.json`)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    return { problem: { file, message: `unreadable (${code ?? String(error)})` } }
  }
  const parsed = parseTaskFile(text, id)
  return 'task' in parsed ? { task: parsed.task } : { problem: { file, message: parsed.error } }
}

/** The graph a set of entries makes: links symmetric, damaged ids kept as open blockers. */
export function stateOf(entries: ReadonlyMap<string, TaskEntry>): FolderState {
  const tasks: Task[] = []
  const problems: TaskFileProblem[] = []
  const damaged = new Set<string>()
  for (const [id, entry] of [...entries].sort(([a], [b]) => Number(a) - Number(b))) {
    if ('task' in entry) tasks.push(entry.task)
    else {
      problems.push(entry.problem)
      damaged.add(id)
    }
  }
  return { tasks: normalizeGraph(tasks, damaged), problems, damaged, fileIds: [...entries.keys()].map(Number), entries }
}

/** Names of the task files (`12.json`), nothing else. */
function taskFileNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => TASK_FILE.test(name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** Writes a task's file atomically (readers see the old or the new file, never half). */
export function writeTask(dir: string, task: Task): Promise<void> {
  return writeFileAtomic(join(dir, `${task.id}.json`), serializeTask(task), 0o644)
}

/** Removes a task's file. */
export function removeTask(dir: string, id: string): Promise<void> {
  return rm(join(dir, `${id}.json`), { force: true })
}

/**
 * The high-water mark: 0 when the file does not exist yet. A file that exists but holds no number
 * is an error: guessing could hand out an id again.
 */
export async function readHighWaterMark(dir: string): Promise<number> {
  const file = join(dir, HIGH_WATER_MARK)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
  const value = Number(text.trim())
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`The task list's id counter ${file} is damaged (it holds ${JSON.stringify(text.slice(0, 40))}); new tasks cannot get ids until it holds the highest id ever used.`)
  return value
}

export function writeHighWaterMark(dir: string, value: number): Promise<void> {
  return writeFileAtomic(join(dir, HIGH_WATER_MARK), `${value}\n`, 0o644)
}
