import type { Task, TaskFileProblem } from '../store/tasks/task'
import { errorResult } from './define-tool'
import type { ToolContext, ToolResult } from './types'

/** Shared by the four task tools: compact text for the model, never more than it needs. */

/** The session's task list, or an error result when this session has none (a host without a store). */
export function taskListOf(ctx: ToolContext): NonNullable<ToolContext['tasks']> | ToolResult {
  return ctx.tasks ?? errorResult('This session has no task list.')
}

/** `#3 [in_progress] Run the tests (owner: main) [blocked by #1, #2]`: open blockers only. */
export function taskLine(task: Task, all: ReadonlyMap<string, Task>): string {
  const open = task.blockedBy.filter((id) => all.get(id)?.status !== 'completed')
  const owner = task.owner ? ` (owner: ${task.owner})` : ''
  const blocked = open.length > 0 ? ` [blocked by ${open.map((id) => `#${id}`).join(', ')}]` : ''
  return `#${task.id} [${task.status}] ${task.subject}${owner}${blocked}`
}

/** One line per unreadable file, so the model (and the user) know the list is not whole. */
export function problemLines(problems: readonly TaskFileProblem[]): string {
  if (problems.length === 0) return ''
  const lines = problems.map((problem) => `- ${problem.file}: ${problem.message}`)
  return `\n\n${problems.length === 1 ? 'One task file' : `${problems.length} task files`} could not be read:\n${lines.join('\n')}`
}

/** `#4 Write the docs, #5 Ship`: for "completing this unblocked…". */
export function taskRefs(tasks: readonly Task[]): string {
  return tasks.map((task) => `#${task.id} ${task.subject}`).join(', ')
}
