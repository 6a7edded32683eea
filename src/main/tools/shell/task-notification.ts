import type { BackgroundShell } from './background-shells'

/**
 * What the model is told when a background command ends without it asking (Claude Code's
 * `<task-notification>`): which task, how it ended, and how to read what it printed.
 */
export function taskNotification(shell: BackgroundShell): string {
  const status = shell.status
  const how = status === 'completed' ? 'completed (exit code 0)' : status === 'failed' ? `failed (exit code ${shell.exitCode})` : status === 'killed' ? 'was stopped' : 'is running'
  const command = shell.command.length > 200 ? `${shell.command.slice(0, 199)}…` : shell.command
  return [
    '<task-notification>',
    `<task-id>${shell.id}</task-id>`,
    `<status>${status}</status>`,
    `<summary>Background command "${command}" ${how}.</summary>`,
    '</task-notification>',
    `Read its output with TaskOutput (task_id "${shell.id}").`,
  ].join('\n')
}
