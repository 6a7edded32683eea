import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import { normalizeGraph, type TaskMap } from './graph'
import { parseTaskFile, serializeTask, TASK_FILE, type Task, type TaskFileProblem } from './task'

/**
 * The files of one task-list folder: `<id>.json` per task and `.highwatermark` (the highest id
 * ever handed out, so ids survive deletions). Reads never throw for a bad file: it is reported.
 */

/** Everything a folder holds, as one consistent graph. */
export interface FolderState {
  tasks: TaskMap
  problems: TaskFileProblem[]
  /** Ids whose file exists but cannot be read (they still count as taken, and as open blockers). */
  damaged: Set<string>
  /** Every id that has a file, readable or not. */
  fileIds: number[]
}

const HIGH_WATER_MARK = '.highwatermark'

/** Reads every task file of the folder (a missing folder is an empty list). */
export async function readFolder(dir: string): Promise<FolderState> {
  const names = await taskFileNames(dir)
  const tasks: Task[] = []
  const problems: TaskFileProblem[] = []
  const damaged = new Set<string>()
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8').catch((error: NodeJS.ErrnoException) => error)))
  names.forEach((name, index) => {
    const id = TASK_FILE.exec(name)![1]!
    const text = texts[index]!
    // A file deleted between readdir and read is simply gone.
    if (text instanceof Error && text.code === 'ENOENT') return
    const parsed = text instanceof Error ? { error: `unreadable (${text.code ?? text.message})` } : parseTaskFile(text, String(Number(id)))
    if ('task' in parsed) tasks.push(parsed.task)
    else {
      problems.push({ file: join(dir, name), message: parsed.error })
      damaged.add(String(Number(id)))
    }
  })
  return { tasks: normalizeGraph(tasks, damaged), problems, damaged, fileIds: names.map((name) => Number(TASK_FILE.exec(name)![1])) }
}

/** Names of the task files (`12.json`), nothing else. */
export async function taskFileNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => TASK_FILE.test(name))
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
