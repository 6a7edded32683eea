import type { Task } from '../store/tasks/task'

/** The task tools: using any of them counts as keeping the list in view. */
export const TASK_TOOLS: ReadonlySet<string> = new Set(['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate'])

/** How often the model is reminded of a task list it has left alone (in requests). */
export const TASK_REMINDER_EVERY = 10

export interface TaskRemindersOptions {
  /** The list as it is now (a cached read: cheap, and never throws). */
  tasks(): readonly Task[]
  /** The name the session's main agent owns tasks under (`main`, or `main@…` on a shared list). */
  owner: string
  /** Requests without a task tool before the first reminder, and between reminders (default {@link TASK_REMINDER_EVERY}). */
  every?: number
}

/**
 * When to nudge the model about its task list, as Claude Code does: when it has open tasks and has
 * not used a task tool for a while, and when it ended a turn with one of its tasks still in
 * progress. The session calls `touched` after each task-tool call, `turnEnded` when the model ends a
 * turn, and `due` once per request (the reminder queue's source). Pure bookkeeping over the list.
 */
export class TaskReminders {
  private sinceTouch = 0
  private sinceReminder = 0
  /** Tasks in progress when the model last ended a turn (told with the next request if still so). */
  private leftInProgress: string[] = []

  constructor(private readonly o: TaskRemindersOptions) {}

  private get every(): number {
    return this.o.every ?? TASK_REMINDER_EVERY
  }

  /** The model used a task tool: the list is in view. */
  touched(): void {
    this.sinceTouch = 0
  }

  /** The model ended a turn: remember which of its tasks it left in progress. */
  turnEnded(): void {
    this.leftInProgress = this.o
      .tasks()
      .filter((task) => task.status === 'in_progress' && task.owner === this.o.owner)
      .map((task) => task.id)
  }

  /** What is due with the request about to be sent. Contract: call once per request; never throws. */
  due(): string[] {
    const out: string[] = []
    let tasks: readonly Task[]
    try {
      tasks = this.o.tasks()
    } catch {
      return out
    }
    const left = tasks.filter((task) => this.leftInProgress.includes(task.id) && task.status === 'in_progress' && task.owner === this.o.owner)
    this.leftInProgress = []
    if (left.length > 0) out.push(endedInProgress(left))
    this.sinceTouch++
    this.sinceReminder++
    const open = tasks.filter((task) => task.status !== 'completed')
    if (open.length > 0 && this.sinceTouch > this.every && this.sinceReminder > this.every) {
      this.sinceReminder = 0
      out.push(untouched(open))
    }
    return out
  }
}

function endedInProgress(tasks: readonly Task[]): string {
  const which = tasks.map((task) => `#${task.id} "${task.subject}"`).join(', ')
  const one = tasks.length === 1
  return `Your last turn ended with ${one ? 'task' : 'tasks'} ${which} still in progress. If ${one ? 'it is' : 'they are'} done, mark ${one ? 'it' : 'them'} completed with TaskUpdate; if not, carry on, or tell the user what is in the way. Do not mention this reminder to the user.`
}

function untouched(open: readonly Task[]): string {
  const shown = open.slice(0, 20).map((task) => `#${task.id} [${task.status}] ${task.subject}${task.owner ? ` (owner: ${task.owner})` : ''}`)
  const more = open.length > shown.length ? `\n… and ${open.length - shown.length} more (TaskList shows them all)` : ''
  return `You have not used the task tools for a while, and your task list has open tasks:\n${shown.join('\n')}${more}\nIf you finished any, mark them completed with TaskUpdate; if the work has changed, update the list. If the list does not fit what you are doing now, carry on. Do not mention this reminder to the user.`
}
