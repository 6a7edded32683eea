import { z } from 'zod'

/**
 * One task of a task list, as stored in `<list>/<id>.json` (Claude Code's task fields). `blocks`
 * and `blockedBy` are kept symmetric: A blocks B exactly when B is blocked by A.
 */
export interface Task {
  /** An increasing integer, as a string ("1", "2"…); never reused within a list. */
  id: string
  /** Imperative title ("Run the tests"). */
  subject: string
  description: string
  /** Present continuous, shown while the task is in progress ("Running the tests"). */
  activeForm?: string
  /** The agent working on it (or assigned to it). */
  owner?: string
  status: TaskStatus
  /** Tasks that cannot start before this one is completed. */
  blocks: string[]
  /** Tasks that must be completed before this one can start. */
  blockedBy: string[]
  metadata?: Record<string, unknown>
  /**
   * Where the user put the task in the list (Sous's own field; Claude Code's lists have none and
   * read in id order). See `order.ts`.
   */
  position?: number
}

/** Where a task is in its life (a deleted task has no file). */
export type TaskStatus = 'pending' | 'in_progress' | 'completed'

/** A file of the list folder that is not a readable task, reported instead of crashing a listing. */
export interface TaskFileProblem {
  file: string
  message: string
}

/**
 * The file format. Unknown keys pass through, so a file another tool (or a newer Sous) wrote keeps
 * them when we rewrite it.
 */
export const TaskFile = z.looseObject({
  id: z.string().regex(/^\d+$/),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()).default([]),
  blockedBy: z.array(z.string()).default([]),
  metadata: z.record(z.string(), z.unknown()).optional(),
  position: z.number().finite().optional(),
})

/** `12.json`: the only names a listing reads (temp files and the lock never match). */
export const TASK_FILE = /^([1-9]\d*)\.json$/

/** The id in what a model wrote ("3", "#3"), or undefined when it is no id at all (never a path). */
export function normalizeTaskId(raw: string): string | undefined {
  const match = /^\s*#?(\d{1,15})\s*$/.exec(raw)
  return match ? String(Number(match[1])) : undefined
}

/** Parses a task file's text; a message says what is wrong with it. */
export function parseTaskFile(text: string, expectedId: string): { task: Task } | { error: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { error: `not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  const parsed = TaskFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { error: `not a task (${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'invalid'})` }
  }
  if (parsed.data.id !== expectedId) return { error: `its id is ${parsed.data.id}, not ${expectedId}` }
  return { task: parsed.data as Task }
}

/** The file text of a task: keys in a stable order, two-space indent, newline at the end. */
export function serializeTask(task: Task): string {
  const { id, subject, description, activeForm, owner, status, blocks, blockedBy, metadata, position, ...rest } = task
  const ordered = { id, subject, description, activeForm, owner, status, blocks, blockedBy, metadata, position, ...rest }
  return `${JSON.stringify(ordered, null, 2)}\n`
}
