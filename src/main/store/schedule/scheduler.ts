import { randomBytes } from 'node:crypto'
import { humanSchedule, parseCron, type ParsedCron } from './cron'
import { readDurable, writeDurable } from './durable'
import type { ScheduledJob } from './job'

export type { ScheduledJob } from './job'

/**
 * The scheduler of scheduled prompts (CronCreate): every session's jobs, checked once a second
 * (on the second, so a job fires within a few milliseconds of its time). A due job fires only into
 * an idle session — a job that comes due during a turn waits for its end, and several runs missed
 * that way fire once. Nothing runs while the app is closed: when a project's durable jobs are
 * read again, the runs they missed are listed (`missed`), never replayed.
 */

/** A job as CronList shows it. */
export interface ListedJob extends ScheduledJob {
  humanSchedule: string
  nextFireAt?: number
}

/** What the scheduler does when a job fires, and whom it asks. */
export interface SchedulerDeps {
  /** The clock (tests move it; default `Date.now`). */
  now?(): number
  /** Whether the session is between turns (a job fires only then). */
  isIdle(sessionId: string): boolean
  /** Runs the job's prompt in its session. */
  fire(sessionId: string, job: ScheduledJob, at: number): void
  /** Runs a durable job missed while the app was closed (listed, not run). */
  missed(sessionId: string, job: ScheduledJob, runs: number[]): void
  /** A damaged durable file, a write that failed. */
  problem(sessionId: string, message: string): void
}

/** Recurring jobs end after this long (Claude Code: seven days; they fire once more, then go). */
export const RECURRING_MAX_AGE_MS = 7 * 86_400_000
/** At most this many jobs per session (Claude Code refuses more, too). */
export const MAX_JOBS = 50

interface Entry {
  job: ScheduledJob
  cron: ParsedCron
  nextAt: number | undefined
  /** It came due during a turn: fire when the session is idle. */
  due: boolean
}

interface SessionJobs {
  projectPath: string
  jobs: Map<string, Entry>
  /** This session holds the project's durable file (the first session opened in the project). */
  holdsDurable: boolean
  /** The durable file did not read: refuse durable jobs rather than overwrite it. */
  durableBroken?: string
}

/** What `create` is given (CronCreate's input after validation). */
export interface NewJob {
  cron: string
  prompt: string
  recurring: boolean
  durable: boolean
}

/** Every session's scheduled prompts, and the one clock that fires them. */
export class Scheduler {
  private readonly sessions = new Map<string, SessionJobs>()
  private timer: NodeJS.Timeout | undefined
  private readonly now: () => number

  constructor(private readonly deps: SchedulerDeps) {
    this.now = deps.now ?? Date.now
  }

  /** Starts watching a session; the first session of a project adopts its durable jobs. */
  async open(sessionId: string, projectPath: string): Promise<void> {
    if (this.sessions.has(sessionId)) return
    const holdsDurable = ![...this.sessions.values()].some((other) => other.projectPath === projectPath && other.holdsDurable)
    const entry: SessionJobs = { projectPath, jobs: new Map(), holdsDurable }
    this.sessions.set(sessionId, entry)
    if (!holdsDurable) return
    const { jobs, problem } = await readDurable(projectPath)
    if (problem) {
      entry.durableBroken = problem
      this.deps.problem(sessionId, problem)
      return
    }
    const now = this.now()
    let changed = false
    for (const job of jobs) {
      const parsed = await parseCron(job.cron)
      if (!parsed.ok) {
        this.deps.problem(sessionId, `Scheduled job ${job.id} is left out: ${parsed.reason}`)
        continue
      }
      const runs = parsed.cron.between(job.lastFiredAt ?? job.createdAt, now, 100)
      if (runs.length > 0) {
        this.deps.missed(sessionId, job, runs)
        job.lastFiredAt = now
        changed = true
        // A one-shot job that missed its time is listed, and gone: it is not run late.
        if (!job.recurring) continue
      }
      entry.jobs.set(job.id, { job, cron: parsed.cron, nextAt: parsed.cron.next(now), due: false })
    }
    if (changed) await this.persist(sessionId)
    this.arm()
  }

  /** Stops a session's jobs (session-only jobs end with it; durable ones stay on disk). */
  close(sessionId: string): void {
    this.sessions.delete(sessionId)
    if (this.sessions.size === 0) this.disarm()
  }

  /** Adds a job, or says why not. A `frequent` schedule must have been confirmed by the caller. */
  async create(sessionId: string, input: NewJob): Promise<{ ok: true; job: ListedJob } | { ok: false; reason: string }> {
    const session = this.sessions.get(sessionId)
    if (!session) return { ok: false, reason: 'Scheduled prompts are not available in this session.' }
    const parsed = await parseCron(input.cron)
    if (!parsed.ok) return parsed
    if (session.jobs.size >= MAX_JOBS) return { ok: false, reason: `Too many scheduled jobs (max ${MAX_JOBS}). Cancel one first.` }
    if (input.durable && session.durableBroken) return { ok: false, reason: session.durableBroken }
    const job: ScheduledJob = { id: randomBytes(4).toString('hex'), cron: parsed.cron.expr, prompt: input.prompt, recurring: input.recurring, durable: input.durable, createdAt: this.now() }
    const entry: Entry = { job, cron: parsed.cron, nextAt: parsed.cron.next(this.now()), due: false }
    session.jobs.set(job.id, entry)
    if (job.durable) await this.persist(sessionId)
    this.arm()
    return { ok: true, job: listed(entry) }
  }

  /** The session's jobs, next to fire first. */
  list(sessionId: string): ListedJob[] {
    const jobs = [...(this.sessions.get(sessionId)?.jobs.values() ?? [])]
    return jobs.map(listed).sort((a, b) => (a.nextFireAt ?? Infinity) - (b.nextFireAt ?? Infinity))
  }

  /** Cancels a job; false when the session has none by that id. */
  async delete(sessionId: string, id: string): Promise<boolean> {
    const entry = this.sessions.get(sessionId)?.jobs.get(id)
    if (!entry) return false
    this.sessions.get(sessionId)!.jobs.delete(id)
    if (entry.job.durable) await this.persist(sessionId)
    return true
  }

  /** One check: fires what is due into idle sessions. Public for the clock and for tests. */
  tick(): void {
    const now = this.now()
    for (const [sessionId, session] of this.sessions) {
      let durableChanged = false
      for (const entry of session.jobs.values()) {
        if (entry.nextAt !== undefined && entry.nextAt <= now) {
          entry.due = true
          entry.nextAt = entry.cron.next(now)
        }
        if (!entry.due || !this.deps.isIdle(sessionId)) continue
        entry.due = false
        entry.job.lastFiredAt = now
        const expired = entry.job.recurring && now - entry.job.createdAt >= RECURRING_MAX_AGE_MS
        if (!entry.job.recurring || expired || entry.nextAt === undefined) session.jobs.delete(entry.job.id)
        if (entry.job.durable) durableChanged = true
        this.deps.fire(sessionId, entry.job, now)
      }
      if (durableChanged) void this.persist(sessionId)
    }
  }

  /** Stops the clock and forgets every session. */
  dispose(): void {
    this.disarm()
    this.sessions.clear()
  }

  private async persist(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId)
    if (!session?.holdsDurable || session.durableBroken) return
    const durable = [...session.jobs.values()].map((entry) => entry.job).filter((job) => job.durable)
    try {
      await writeDurable(session.projectPath, durable)
    } catch (error) {
      this.deps.problem(sessionId, `Scheduled jobs could not be saved: ${(error as Error).message}`)
    }
  }

  /** Checks on each second (plus a little, so a job due at :00 is due when looked at). */
  private arm(): void {
    if (this.timer) return
    const step = () => {
      this.timer = setTimeout(() => {
        this.tick()
        if (this.timer) step()
      }, 1000 - (this.now() % 1000) + 5)
      this.timer.unref()
    }
    step()
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}

function listed(entry: Entry): ListedJob {
  return { ...entry.job, humanSchedule: humanSchedule(entry.job.cron), ...(entry.nextAt !== undefined && { nextFireAt: entry.nextAt }) }
}
