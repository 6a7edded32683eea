import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import description from './cron-delete.prompt'
import { scheduleOf } from './cron-format'

/** CronDelete: cancels a scheduled prompt by the id CronCreate gave. */
export const cronDeleteTool = defineTool({
  name: 'CronDelete',
  label: 'Cancel scheduled prompt',
  description,
  input: z.strictObject({ id: z.string().describe('Job ID returned by CronCreate.') }),
  isDestructive: () => false,
  // Like the task list: the session's own bookkeeping, allowed without asking (deny and ask rules still apply).
  isBookkeeping: () => true,
  summarize: (args) => args.id,
  async execute(args, ctx) {
    const schedule = scheduleOf(ctx)
    if (!('delete' in schedule)) return schedule
    if (!(await schedule.delete(args.id))) return errorResult(`No scheduled job with id '${args.id}'`)
    return { content: `Cancelled job ${args.id}.`, details: { id: args.id } }
  },
})
