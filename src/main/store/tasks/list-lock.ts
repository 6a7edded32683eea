import { mkdir } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { properLockfile } from '../../base/proper-lockfile'

/** How hard to try for the list lock (the seeds' numbers: up to 30 retries, 5–100 ms backoff). */
export interface LockPolicy {
  retries: number
  minDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_LOCK_POLICY: LockPolicy = { retries: 30, minDelayMs: 5, maxDelayMs: 100 }

/** Counters of one list's lock, for the benchmark and diagnostics. */
export interface LockStats {
  /** Times the lock was taken. */
  acquired: number
  /** Attempts that found it held by someone else and waited. */
  retries: number
}

/** The lock could not be taken within the policy (another agent held it the whole time). */
export class TaskListBusyError extends Error {
  readonly code = 'TASK_LIST_BUSY'
}

/**
 * The lock of one task-list folder: a `proper-lockfile` lock (a `<list>.lock` directory beside the
 * folder, so it works across processes and taking it does not touch the folder's mtime; a stale lock
 * of a crashed process is taken over after 10 s) plus an in-process queue, so calls of one process
 * wait their turn instead of spinning on retries.
 */
export class ListLock {
  readonly stats: LockStats = { acquired: 0, retries: 0 }
  private tail: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly dir: string,
    private readonly policy: LockPolicy = DEFAULT_LOCK_POLICY,
  ) {}

  /**
   * Runs `critical` while holding the lock and releases it afterwards, whatever happens. Calls of
   * this process take their turns in the order they were made (the folder is created in the turn,
   * not before it, where it could reorder them).
   * Contract: rejects with {@link TaskListBusyError} when the lock cannot be had; a lock found
   * compromised (lost while held) fails the operation with a message rather than killing the process.
   */
  run<T>(critical: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(() => this.holding(critical))
    this.tail = turn.catch(() => undefined)
    return turn
  }

  private async holding<T>(critical: () => Promise<T>): Promise<T> {
    let compromised: Error | undefined
    await mkdir(this.dir, { recursive: true })
    const release = await this.acquire((error) => (compromised = error))
    try {
      const result = await critical()
      if (compromised) throw new Error(`the task list lock was lost while updating (${compromised.message}); check the list`)
      return result
    } finally {
      await release().catch(() => undefined)
    }
  }

  private async acquire(onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
    for (let attempt = 0; ; attempt++) {
      try {
        const release = await properLockfile().lock(this.dir, { lockfilePath: `${this.dir}.lock`, realpath: false, retries: 0, onCompromised })
        this.stats.acquired++
        return release
      } catch (error) {
        if ((error as { code?: string }).code !== 'ELOCKED') throw error
        if (attempt >= this.policy.retries) throw new TaskListBusyError(`The task list is busy (another agent held its lock through ${this.policy.retries} retries); try again.`)
        this.stats.retries++
        await sleep(this.delay(attempt))
      }
    }
  }

  /** Exponential backoff with jitter, between the policy's bounds. */
  private delay(attempt: number): number {
    const base = Math.min(this.policy.maxDelayMs, this.policy.minDelayMs * 2 ** attempt)
    return Math.min(this.policy.maxDelayMs, base * (1 + Math.random()))
  }
}
