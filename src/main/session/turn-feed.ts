import type { QueryResult } from '../engine/types'
import { addUsage } from '../engine/usage'
import type { SessionHandle } from './session'

/**
 * Messages that must reach the main agent as user messages of their own (a coordinator's workers
 * reporting back): each batch starts a turn once the session is idle, one turn at a time, in order.
 * Contract: never throws; a turn that cannot start (the session closed) drops nothing it could deliver later.
 */
export class TurnFeed {
  private readonly waiting: string[] = []
  private finished: QueryResult[] = []
  private pumping: Promise<void> | undefined

  /** `onResult` hears each delivered batch's turn as it ends. */
  constructor(
    private readonly session: () => SessionHandle | undefined,
    private readonly onResult?: (result: QueryResult) => void,
  ) {}

  /** Queues a message; it starts a turn (with any others waiting then) when the session is idle. */
  push(text: string): void {
    this.waiting.push(text)
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined
      if (this.waiting.length > 0 && this.session()) this.push(this.waiting.shift()!)
    })
  }

  /** Whether a batch is being delivered (its turn waiting to start or running). */
  get busy(): boolean {
    return this.pumping !== undefined
  }

  /** Messages not delivered yet. */
  get pending(): number {
    return this.waiting.length
  }

  /** The results of the turns delivered messages started since the last call, oldest first. */
  takeResults(): QueryResult[] {
    const results = this.finished
    this.finished = []
    return results
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
      let result: QueryResult
      try {
        result = await session.runTurn(text)
      } catch {
        // Another turn started first (a user's prompt): wait for it and try again.
        this.waiting.unshift(text)
        continue
      }
      this.finished.push(result)
      try {
        this.onResult?.(result)
      } catch {
        // A listener's bug must not lose the delivery.
      }
    }
  }
}

/**
 * One result for a turn and the turns that followed it (reports of the work it started): the last
 * turn's reason, text and conversation; the requests, usage and cost of them all.
 */
export function combineTurns(first: QueryResult, later: readonly QueryResult[]): QueryResult {
  const last = later.at(-1) ?? first
  return {
    ...last,
    turns: later.reduce((sum, result) => sum + result.turns, first.turns),
    usage: later.reduce((sum, result) => addUsage(sum, result.usage), first.usage),
    costUsd: later.reduce((sum, result) => sum + result.costUsd, first.costUsd),
  }
}
