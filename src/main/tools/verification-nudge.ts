import type { Task } from '../store/tasks/task'

/** A task whose subject says it verifies the work (tests, a build, a check, a review). */
const VERIFYING = /\b(verif\w*|tests?|testing|check\w*|lint\w*|typecheck\w*|build|review\w*|validat\w*|QA)\b/i

/** How many completed tasks without a verification step earn the nudge (the design's three). */
export const NUDGE_AFTER = 3

/**
 * The design's verification nudge: once the model has closed out three or more tasks and none of
 * them was a verification step, the TaskUpdate that completed the last one says so. Only when the
 * whole list is done (the moment it would write its summary), and only at that completion.
 */
export function verificationNudge(tasks: readonly Task[], justCompleted: boolean): string | undefined {
  if (!justCompleted || tasks.length < NUDGE_AFTER || tasks.some((task) => task.status !== 'completed')) return undefined
  if (tasks.some((task) => VERIFYING.test(`${task.subject} ${task.activeForm ?? ''}`))) return undefined
  return `NOTE: You just closed out ${tasks.length} tasks and none of them was a verification step. Before you write your final summary, verify the work: run the tests, the build or the linter the project has (or check the change by hand), and report what you ran and what it showed. If verification is impossible here, say so plainly.`
}
