import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import type { BackgroundShell } from './shell/background-shells'

const description = `
Reads the output of a background task (a command started with Bash run_in_background, or an agent started with the Agent tool) and its status.
- For a command, returns only the output produced since the last TaskOutput call for that task
- For an agent, returns its final result once it has finished
- With block=true (default), waits until the task finishes or the timeout (ms, default 30000) passes
- Use block=false to check on a task without waiting
`

const input = z.strictObject({
  task_id: z.string().describe('The id of the background task, e.g. "bash_1" or an agent id'),
  block: z.boolean().default(true).describe('Whether to wait for the task to finish'),
  timeout: z.number().int().min(0).max(600_000).default(30_000).describe('How long to wait in ms when blocking'),
})

/** TaskOutput: new output of a background shell plus its status. */
export const taskOutputTool = defineTool({
  name: 'TaskOutput',
  label: 'Task output',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `Output of ${args.task_id}`,
  async execute(args, ctx) {
    const shell = ctx.shell?.background.get(args.task_id)
    if (!shell) {
      const agent = await ctx.agents?.output(args.task_id, { block: args.block, timeoutMs: args.timeout, signal: ctx.signal })
      if (agent) return agent
    }
    if (!shell) return errorResult(`No background task with id "${args.task_id}".${known(ctx.shell?.background.list() ?? [])}`)
    if (args.block && shell.status === 'running') await waitFor(shell, args.timeout, ctx.signal)
    const output = shell.takeOutput()
    const status = shell.status
    shell.reportEnd()
    const state = status === 'running' ? 'running' : status === 'killed' ? 'killed' : `${status} (exit code ${shell.exitCode})`
    return {
      content: `<task_id>${shell.id}</task_id>\n<status>${state}</status>\n<output>\n${output || '(no new output)'}\n</output>`,
      details: { taskId: shell.id, status, exitCode: shell.exitCode, ptyId: shell.run.proc.id },
    }
  },
})

function known(shells: BackgroundShell[]): string {
  return shells.length ? ` Known tasks: ${shells.map((s) => s.id).join(', ')}.` : ' There are no background tasks.'
}

async function waitFor(shell: BackgroundShell, timeoutMs: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  await Promise.race([
    shell.run.done,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
      onAbort = () => resolve()
      signal.addEventListener('abort', onAbort, { once: true })
    }),
  ])
  if (timer) clearTimeout(timer)
  if (onAbort) signal.removeEventListener('abort', onAbort)
}
