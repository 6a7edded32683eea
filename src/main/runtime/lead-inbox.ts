import type { ReminderQueue } from '../context/reminders'
import type { SessionHandle } from '../session/session'
import { TurnFeed } from '../session/turn-feed'

/**
 * How the lead of an agent team hears from its teammates: what arrives while the lead works rides
 * on its next request as an `[Inbox]` reminder; what arrives while it is idle (or is still
 * undelivered when its turn ends) starts a turn of its own, as Claude Code wakes its lead.
 * Contract: never throws; each text is delivered once.
 */
export class LeadInbox {
  private readonly pending: string[] = []
  private readonly feed: TurnFeed

  constructor(
    reminders: ReminderQueue,
    private readonly handle: () => SessionHandle | undefined,
    source = 'team',
  ) {
    this.feed = new TurnFeed(handle)
    reminders.addSource({ source, due: () => this.pending.splice(0) })
  }

  /** Resolves once no inbox turn is waiting to start or running. */
  drained(): Promise<void> {
    return this.feed.drained()
  }

  push(text: string): void {
    this.pending.push(text)
    const session = this.handle()
    if (session?.busy) void session.whenIdle().then(() => this.flush())
    else this.flush()
  }

  private flush(): void {
    if (this.handle()?.busy || this.pending.length === 0) return
    this.feed.push(this.pending.splice(0).join('\n\n'))
  }
}
