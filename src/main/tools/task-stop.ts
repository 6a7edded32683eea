import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Stops a running background task by its id: a command started with Bash run_in_background (its whole process group is ended) or an agent started with the Agent tool (with the agents it started).
`

const input = z.strictObject({
  task_id: z.string().optional().describe('The id of the background task to stop'),
  shell_id: z.string().optional().describe('Deprecated: use task_id'),
})

/** TaskStop: ends a background shell and its process group. */
export const taskStopTool = defineTool({
  name: 'TaskStop',
  label: 'Stop task',
  description,
  input,
  isDestructive: () => false,
  // It ends a process or an agent the agent itself started in the background, nothing of the user's.
  isBookkeeping: () => true,
  summarize: (args) => `Stop ${args.task_id ?? args.shell_id ?? ''}`,
  validate: async (args) => (args.task_id || args.shell_id ? undefined : 'task_id is required.'),
  async execute(args, ctx) {
    const id = (args.task_id ?? args.shell_id)!
    const shell = ctx.shell?.background.get(id)
    if (!shell) return (await ctx.agents?.stop(id)) ?? errorResult(`No background task with id "${id}".`)
    if (shell.status !== 'running') {
      shell.reportEnd()
      return { content: `Task ${id} had already ended (${shell.status}).`, details: { taskId: id, status: shell.status } }
    }
    await ctx.shell!.background.stop(id)
    shell.reportEnd()
    return { content: `Task ${id} was stopped.`, details: { taskId: id, status: shell.status } }
  },
})
