import type { ListedJob } from '../store/schedule/scheduler'
import type { ScheduleAccess, ToolContext, ToolResult } from './types'

/** The session's scheduler, or the error a tool answers where there is none (a subagent, `sous -p`). */
export function scheduleOf(ctx: ToolContext): ScheduleAccess | ToolResult {
  return ctx.schedule ?? { content: 'Scheduled prompts are not available in this session.', isError: true }
}

/** A fire time as the results give it (local time, to the second). */
export function when(at: number | undefined): string {
  if (at === undefined) return 'never'
  const date = new Date(at)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** One CronList line (Claude Code's shape). */
export function jobLine(job: ListedJob): string {
  const prompt = job.prompt.length > 80 ? `${job.prompt.slice(0, 79)}…` : job.prompt
  return `${job.id} — ${job.humanSchedule}${job.recurring ? ' (recurring)' : ' (one-shot)'}${job.durable ? '' : ' [session-only]'}${job.nextFireAt === undefined ? '' : `, next run ${when(job.nextFireAt)}`}: ${prompt}`
}
