import type { ExtensionProblem, McpServerStatus } from '../../../../shared/ipc/contract'
import { groupDigits } from '../../lib/group-digits'

/** A server's status in words, as the Extensions view shows it. */
export function statusLabel(status: McpServerStatus['status']): string {
  switch (status) {
    case 'pending':
      return 'Not started (no session yet)'
    case 'connecting':
      return 'Connecting…'
    case 'connected':
      return 'Connected'
    case 'failed':
      return 'Failed'
    case 'disabled':
      return 'Off'
    case 'needs-approval':
      return 'Waiting for your approval'
    case 'untrusted':
      return 'Waiting for you to trust the folder'
  }
}

/** Where a server, skill or command is configured, in words. */
export function scopeLabel(scope: string): string {
  switch (scope) {
    case 'project':
      return 'project'
    case 'local':
      return 'yours, this project'
    case 'user':
      return 'yours'
    case 'cli':
      return 'command line'
    default:
      return scope
  }
}

/** `12345` → `12,345 tokens`. */
export function tokens(count: number): string {
  return `${groupDigits(count)} token${count === 1 ? '' : 's'}`
}

/** The problems of one part of the view: files under `skills/`, under `commands/`, or the rest (MCP configuration). */
export function problemsOf(problems: readonly ExtensionProblem[], part: 'skills' | 'commands' | 'mcp'): ExtensionProblem[] {
  const under = (folder: string) => (problem: ExtensionProblem) => problem.file !== undefined && new RegExp(`[\\\\/]${folder}[\\\\/]`).test(problem.file)
  const skills = under('skills')
  const commands = under('commands')
  if (part === 'skills') return problems.filter(skills)
  if (part === 'commands') return problems.filter(commands)
  return problems.filter((problem) => !skills(problem) && !commands(problem))
}

/** A hook run's outcome in a few words. */
export function runOutcome(run: { exitCode: number | null; timedOut: boolean; error?: string }): string {
  if (run.error) return `did not run: ${run.error}`
  if (run.timedOut) return 'timed out'
  if (run.exitCode === 2) return 'exit 2 (blocks)'
  return `exit ${run.exitCode ?? '?'}`
}
