import type { SessionHandle } from './session'

/**
 * Messages that must reach the main agent as user messages of their own (a coordinator's workers
 * reporting back): each batch starts a turn once the session is idle, one turn at a time, in order.
 * Contract: never throws; a turn that cannot start (the session closed) drops nothing it could deliver later.
 */
export class TurnFeed {
  private readonly waiting: string[] = []
  private pumping: Promise<void> | undefined

  constructor(private readonly session: () => SessionHandle | undefined) {}

  /** Queues a message; it starts a turn (with any others waiting then) when the session is idle. */
  push(text: string): void {
    this.waiting.push(text)
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined
      if (this.waiting.length > 0 && this.session()) this.push(this.waiting.shift()!)
    })
  }

  /** Messages not delivered yet. */
  get pending(): number {
    return this.waiting.length
  }

  /** Resolves once every queued message has been delivered (and its turn ended). */
  async drained(): Promise<void> {
    while (this.pumping) await this.pumping
  }

  private async pump(): Promise<void> {
    for (;;) {
      const session = this.session()
      if (!session || this.waiting.length === 0) return
      await session.whenIdle()
      if (session.busy) continue
      const text = this.waiting.splice(0).join('\n\n')
      try {
        await session.runTurn(text)
      } catch {
        // Another turn started first (a user's prompt): wait for it and try again.
        this.waiting.unshift(text)
      }
    }
  }
}
