import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './cron-list.prompt'
import { jobLine, scheduleOf } from './cron-format'

/** CronList: the session's scheduled prompts, next to fire first (Claude Code's lines). */
export const cronListTool = defineTool({
  name: 'CronList',
  label: 'List scheduled prompts',
  description,
  input: z.strictObject({}),
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: () => 'Scheduled prompts',
  async execute(_args, ctx) {
    const schedule = scheduleOf(ctx)
    if (!('list' in schedule)) return schedule
    const jobs = schedule.list()
    return {
      content: jobs.length === 0 ? 'No scheduled jobs.' : jobs.map(jobLine).join('\n'),
      details: { jobs: jobs.map(({ id, cron, humanSchedule, prompt, recurring, durable, nextFireAt }) => ({ id, cron, humanSchedule, prompt, recurring, durable, ...(nextFireAt !== undefined && { nextFireAt }) })) },
    }
  },
})
