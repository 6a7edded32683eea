import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { properLockfile } from '../../base/proper-lockfile'

/** How hard to try for a file's lock. */
export interface FileLockPolicy {
  retries: number
  minDelayMs: number
  maxDelayMs: number
}

/**
 * Mailboxes see many short writes from several processes at once (a lead and its teammates), so
 * the policy retries longer than the task list's: 200 tries of 2–40 ms is several seconds of
 * contention before a write is refused.
 */
export const MAILBOX_LOCK_POLICY: FileLockPolicy = { retries: 200, minDelayMs: 2, maxDelayMs: 40 }

/** The lock could not be had within the policy. */
export class FileBusyError extends Error {
  readonly code = 'FILE_BUSY'
}

/** One in-process queue per locked path, so calls of one process wait their turn instead of spinning. */
const tails = new Map<string, Promise<unknown>>()

/**
 * Runs `critical` holding the lock of `file`: a `proper-lockfile` lock at `<file>.lock` (a
 * directory, so it works across processes; a crashed holder's lock goes stale after 10 s), behind
 * an in-process queue per path. The lock is released whatever happens.
 * Contract: rejects with {@link FileBusyError} when the lock cannot be had; a lock lost while held
 * fails the operation with a message.
 */
export function withFileLock<T>(file: string, critical: () => Promise<T>, policy: FileLockPolicy = MAILBOX_LOCK_POLICY): Promise<T> {
  const previous = tails.get(file) ?? Promise.resolve()
  const turn = previous.then(() => holding(file, critical, policy))
  const tail = turn.catch(() => undefined)
  tails.set(file, tail)
  void tail.then(() => {
    if (tails.get(file) === tail) tails.delete(file)
  })
  return turn
}

async function holding<T>(file: string, critical: () => Promise<T>, policy: FileLockPolicy): Promise<T> {
  let compromised: Error | undefined
  await mkdir(dirname(file), { recursive: true })
  const release = await acquire(file, policy, (error) => (compromised = error))
  try {
    const result = await critical()
    if (compromised) throw new Error(`the lock of ${file} was lost while writing (${compromised.message})`)
    return result
  } finally {
    await release().catch(() => undefined)
  }
}

async function acquire(file: string, policy: FileLockPolicy, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await properLockfile().lock(file, { lockfilePath: `${file}.lock`, realpath: false, retries: 0, onCompromised })
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED') throw error
      if (attempt >= policy.retries) throw new FileBusyError(`${file} is busy (its lock was held through ${policy.retries} retries); try again.`)
      const base = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.min(attempt, 10))
      await sleep(Math.min(policy.maxDelayMs, base * (1 + Math.random())))
    }
  }
}
