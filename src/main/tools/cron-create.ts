import { z } from 'zod'
import { parseCron } from '../store/schedule/cron'
import { defineTool, errorResult } from './define-tool'
import description from './cron-create.prompt'
import { scheduleOf, when } from './cron-format'

const input = z.strictObject({
  cron: z.string().describe('Standard 5-field cron expression in local time: "M H DoM Mon DoW" (e.g. "*/5 * * * *" = every 5 minutes, "30 14 28 2 *" = Feb 28 at 2:30pm local once).'),
  prompt: z.string().describe('The prompt to enqueue at each fire time.'),
  recurring: z.boolean().optional().describe('true (default) = fire on every cron match until deleted or auto-expired after 7 days. false = fire once at the next match, then auto-delete. Use false for "remind me at X" one-shot requests with pinned minute/hour/dom/month.'),
  durable: z.boolean().optional().describe('true = persist to .claude/scheduled_tasks.json and survive restarts. false (default) = in-memory only, dies when this Claude session ends. Use true only when the user asks the task to survive across sessions.'),
})

/**
 * CronCreate: a prompt run at the times of a cron expression (Claude Code's schema and wording).
 * An expression that does not parse is refused with the reason; one that fires more than once a
 * minute runs only once the user confirms it in the approval queue.
 */
export const cronCreateTool = defineTool({
  name: 'CronCreate',
  label: 'Schedule prompt',
  description,
  input,
  isDestructive: () => false,
  // Like the task list: the session's own bookkeeping, allowed without asking (deny and ask rules still apply).
  isBookkeeping: () => true,
  summarize: (args) => `${args.cron}: ${args.prompt}`,
  async validate(args) {
    const parsed = await parseCron(args.cron)
    return parsed.ok ? undefined : parsed.reason
  },
  async execute(args, ctx) {
    const schedule = scheduleOf(ctx)
    if (!('create' in schedule)) return schedule
    const parsed = await parseCron(args.cron)
    if (!parsed.ok) return errorResult(parsed.reason)
    if (parsed.cron.frequent && !(await schedule.confirm(`'${args.cron}' fires more than once a minute: ${args.prompt}`, ctx.toolUseId, ctx.signal))) {
      return errorResult(`CronCreate refused: '${args.cron}' fires more than once a minute, and the user did not confirm it.`)
    }
    const recurring = args.recurring ?? true
    const durable = args.durable ?? false
    const created = await schedule.create({ cron: args.cron, prompt: args.prompt, recurring, durable })
    if (!created.ok) return errorResult(created.reason)
    const { job } = created
    const where = durable ? 'Persisted to .claude/scheduled_tasks.json' : 'Session-only (not written to disk, dies when the session ends)'
    const body = recurring
      ? `Scheduled recurring job ${job.id} (${job.humanSchedule}). ${where}. Next run: ${when(job.nextFireAt)}. Auto-expires after 7 days. Use CronDelete to cancel sooner.`
      : `Scheduled one-shot task ${job.id} (${job.humanSchedule}). ${where}. Next run: ${when(job.nextFireAt)}. It will fire once then auto-delete.`
    return { content: body, details: { id: job.id, humanSchedule: job.humanSchedule, recurring, durable, ...(job.nextFireAt !== undefined && { nextFireAt: job.nextFireAt }) } }
  },
})
