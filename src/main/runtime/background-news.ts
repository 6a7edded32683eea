import type { ReminderQueue } from '../context/reminders'
import { notificationTurnText, taskNotificationText, type TaskNotice } from '../context/task-notification'
import type { QueryResult } from '../engine/types'
import type { SessionHandle } from '../session/session'
import { TurnFeed } from '../session/turn-feed'

/** One piece of background work of the main agent that ended. */
export interface BackgroundEnd {
  notice: TaskNotice
  /** Asked before delivery: false once the model learned the end another way (TaskOutput, TaskStop). */
  stillRelevant(): boolean
}

/** What is still running in the main agent's background, by label (`agent "…"`, `command "…"`). */
export interface BackgroundWork {
  running(): string[]
  /** Resolves when any of it ends (at once when nothing runs). */
  anyEnded(): Promise<void>
  /** Stops all of it and waits (bounded) for it to end. */
  stopAll(): Promise<void>
}

/**
 * Where the ends of the main agent's background work (agents, commands) go. With a UI
 * (`turns: false`) each rides on the model's next request as a reminder, as it always has.
 * Unattended (`sous -p`, `turns: true`) as Claude Code's `-p` does: an end that comes while a turn
 * runs rides on that turn's next request; one that comes while the session is idle (or is still
 * undelivered when the turn ends) starts a turn of its own, a user message of notifications. So
 * the run can wait for its background work with {@link settled} and end when nothing is left.
 * Contract: never throws; each end is delivered once, or dropped when no longer relevant.
 */
export class BackgroundNews {
  private readonly pending: BackgroundEnd[] = []
  private readonly feed: TurnFeed
  private readonly endListeners = new Set<(end: BackgroundEnd) => void>()
  private readonly turnListeners = new Set<(result: QueryResult) => void>()
  private handle: SessionHandle | undefined
  private wake: (() => void) | undefined
  private closed = false

  constructor(private readonly o: { reminders: ReminderQueue; turns: boolean; work: BackgroundWork }) {
    this.feed = new TurnFeed(() => (this.closed ? undefined : this.handle), (result) => {
      for (const listener of this.turnListeners) listener(result)
    })
    // A turn's request takes what ended while it ran (the queue asks its sources at every request).
    if (o.turns) o.reminders.addSource({ source: 'background-task', due: () => this.take().map((end) => taskNotificationText(end.notice)) })
  }

  /** The session whose turns deliver the news. */
  attach(session: SessionHandle): void {
    this.handle = session
  }

  /** Background work ended. */
  push(end: BackgroundEnd): void {
    if (this.closed) return
    for (const listener of this.endListeners) {
      try {
        listener(end)
      } catch {
        // A listener's bug must not lose the delivery.
      }
    }
    if (!this.o.turns) {
      this.o.reminders.push(taskNotificationText(end.notice), { source: 'background-task', stillRelevant: end.stillRelevant })
      return
    }
    this.pending.push(end)
    const session = this.handle
    if (session?.busy) void session.whenIdle().then(() => this.flush())
    else this.flush()
    this.wake?.()
  }

  /** Each end, as it happens (stream-json's `task_notification` lines). */
  onEnd(listener: (end: BackgroundEnd) => void): () => void {
    this.endListeners.add(listener)
    return () => this.endListeners.delete(listener)
  }

  /** Each turn the news started, as it ends (one result per turn, as `sous -p` prints them). */
  onTurn(listener: (result: QueryResult) => void): () => void {
    this.turnListeners.add(listener)
    return () => this.turnListeners.delete(listener)
  }

  /** What still runs in the background. */
  running(): string[] {
    return this.o.work.running()
  }

  /**
   * Stops what still runs and delivers nothing more (a cap on the wait was reached): no turn starts
   * for the ends the stopping causes. Waits (bounded) for the work to end.
   */
  async close(): Promise<void> {
    this.closed = true
    this.pending.splice(0)
    this.wake?.()
    await this.o.work.stopAll()
  }

  /**
   * Resolves once nothing runs in the background, every end was delivered and the turns it started
   * have ended; with the results of those turns since the last call.
   */
  async settled(): Promise<QueryResult[]> {
    for (;;) {
      if (this.closed) return this.feed.takeResults()
      await this.feed.drained()
      await this.handle?.whenIdle()
      this.flush()
      if (this.feed.pending === 0 && this.pending.length === 0 && !this.feed.busy && this.running().length === 0) return this.feed.takeResults()
      // Each round yields to the event loop, so no round of promises that settle at once can starve timers (a cap on the wait).
      await new Promise((resolve) => setImmediate(resolve))
      if (this.feed.pending > 0 || this.pending.length > 0 || this.feed.busy) continue
      const woken = new Promise<void>((resolve) => (this.wake = resolve))
      await Promise.race([this.o.work.anyEnded(), woken])
      this.wake = undefined
    }
  }

  /** The undelivered ends still relevant, taken out. */
  private take(): BackgroundEnd[] {
    const taken = this.pending.splice(0)
    return taken.filter((end) => {
      try {
        return end.stillRelevant()
      } catch {
        return true
      }
    })
  }

  /** Undelivered ends start a turn when the session is idle. */
  private flush(): void {
    if (this.closed || this.handle?.busy) return
    const ends = this.take()
    if (ends.length > 0) this.feed.push(notificationTurnText(ends.map((end) => taskNotificationText(end.notice))))
  }
}
