import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { EventHub } from '../base/event-hub'
import type { ApprovalAsker } from '../governance/approvals/queue'
import { Scheduler, type ScheduledJob } from '../store/schedule/scheduler'
import type { ScheduleAccess } from '../tools/types'

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** What the runtime's scheduler needs from the sessions it fires into. */
export interface ScheduleTarget {
  /** Open here and between turns. */
  isIdle(sessionId: string): boolean
  /** Starts a turn (rejects when the session is not open). */
  prompt(sessionId: string, text: string): Promise<void>
}

/** The text of the turn a fired job starts. */
export function scheduledPrompt(job: Pick<ScheduledJob, 'prompt'>): string {
  return `[Scheduled] ${job.prompt}`
}

/**
 * The runtime's one scheduler, wired to the sessions (set once the SessionManager exists) and the
 * event hub: a fired job is announced (`scheduled_fire`, which the attention inbox lists) and run
 * as a `[Scheduled] …` turn; a missed run is announced (`scheduled_missed`) and not run.
 */
export class SessionSchedule {
  private target: ScheduleTarget | undefined
  readonly scheduler: Scheduler

  constructor(hub: EventHub, now?: () => number) {
    const emit = (event: DistributiveOmit<AgentEvent, 'agentId'>) => hub.emit('agent.event', { agentId: 'main', ...event } as AgentEvent)
    this.scheduler = new Scheduler({
      ...(now && { now }),
      isIdle: (sessionId) => this.target?.isIdle(sessionId) === true,
      fire: (sessionId, job, at) => {
        emit({ type: 'scheduled_fire', sessionId, jobId: job.id, cron: job.cron, prompt: job.prompt, at })
        this.target?.prompt(sessionId, scheduledPrompt(job)).catch((error: unknown) => emit({ type: 'notice', sessionId, level: 'error', message: `Scheduled prompt ${job.id} could not start: ${String(error)}` }))
      },
      missed: (sessionId, job, runs) => emit({ type: 'scheduled_missed', sessionId, jobId: job.id, cron: job.cron, prompt: job.prompt, runs }),
      problem: (sessionId, message) => emit({ type: 'notice', sessionId, level: 'warning', message }),
    })
  }

  /** Where fired jobs go (the SessionManager, made after the runtime's parts). */
  attach(target: ScheduleTarget): void {
    this.target = target
  }

  /** The Cron tools' view of one session; `approvals` confirms schedules that fire more than once a minute. */
  access(sessionId: string, approvals: ApprovalAsker): ScheduleAccess {
    const scheduler = this.scheduler
    return {
      create: (job) => scheduler.create(sessionId, job),
      list: () => scheduler.list(sessionId),
      delete: (id) => scheduler.delete(sessionId, id),
      async confirm(text, toolUseId, signal) {
        if (!approvals.attended) return false
        const outcome = await approvals.request({
          sessionId,
          toolUseId,
          toolName: 'CronCreate',
          input: { confirm: text },
          preview: { kind: 'text', text },
          explanation: { kind: 'default', detail: 'this schedule fires more than once a minute' },
          suggestions: [],
          signal,
        })
        return outcome.behavior === 'allow'
      },
    }
  }

  dispose(): void {
    this.scheduler.dispose()
  }
}
