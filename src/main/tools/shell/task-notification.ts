import { taskNotificationText, type TaskNotice } from '../../context/task-notification'
import type { BackgroundShell } from './background-shells'

/**
 * What the model is told when a background command ends without it asking (Claude Code 2.1.328's
 * `<task-notification>`): which task and call, where its output is, how it ended.
 */
export function shellNotice(shell: BackgroundShell): TaskNotice {
  const status = shell.status
  const how = status === 'completed' ? 'completed (exit code 0)' : status === 'failed' ? `failed (exit code ${shell.exitCode})` : status === 'killed' ? 'was stopped' : 'is running'
  const label = shell.description?.trim() || (shell.command.length > 200 ? `${shell.command.slice(0, 199)}…` : shell.command)
  return {
    taskId: shell.id,
    ...(shell.toolUseId && { toolUseId: shell.toolUseId }),
    ...(shell.outputFile && { outputFile: shell.outputFile }),
    status: status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'killed',
    summary: `Background command "${label}" ${how}`,
  }
}

/** The notification's text (header and XML), as a reminder or a notification turn carries it. */
export function taskNotification(shell: BackgroundShell): string {
  return taskNotificationText(shellNotice(shell))
}
