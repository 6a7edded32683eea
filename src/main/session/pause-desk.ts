import type { PauseAnswer, PauseDesk } from './run-guard'

/**
 * Where a session's paused runs wait for the user: one pending answer per pause id, settled by
 * {@link answer} (the `session.resumePause` request) or as `stop` when the turn aborts.
 */
export class SessionPauseDesk implements PauseDesk {
  private readonly waiting = new Map<string, (answer: PauseAnswer) => void>()

  wait(pauseId: string, signal: AbortSignal): Promise<PauseAnswer> {
    return new Promise((resolve) => {
      const done = (answer: PauseAnswer): void => {
        this.waiting.delete(pauseId)
        signal.removeEventListener('abort', onAbort)
        resolve(answer)
      }
      const onAbort = (): void => done({ choice: 'stop' })
      if (signal.aborted) return done({ choice: 'stop' })
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(pauseId, done)
    })
  }

  /** Answers a waiting pause; false when none with that id waits. */
  answer(pauseId: string, answer: PauseAnswer): boolean {
    const done = this.waiting.get(pauseId)
    if (!done) return false
    done(answer)
    return true
  }
}
