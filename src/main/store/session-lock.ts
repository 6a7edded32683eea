import { dirname } from 'node:path'
import { properLockfile } from '../base/proper-lockfile'
import { AppError } from '../../shared/ipc/result'
import { makePrivateFolder } from './transcript'

/** A lock nobody refreshed for this long belongs to a process that died (proper-lockfile's mtime check). */
const STALE_MS = 10_000

/**
 * Takes the one-writer lock of a session's transcript (`<transcript>.lock`, proper-lockfile's
 * mkdir lock, refreshed while held), so two Sous processes never append to one transcript at once.
 * Resolves to the function that releases it. Contract: a lock held by another live process rejects
 * with AppError CONFLICT and a sentence saying so; a lock left by a crashed process is taken over
 * once stale. `onLost` hears about a lock that was taken away while held (a clock jump, a deleted
 * lock folder); the session goes on, but the user should know.
 */
export async function lockTranscript(path: string, sessionId: string, onLost?: (error: Error) => void): Promise<() => Promise<void>> {
  makePrivateFolder(dirname(path))
  try {
    const release = await properLockfile().lock(path, {
      realpath: false,
      stale: STALE_MS,
      // The default throws from a timer, which would end the process.
      onCompromised: (error) => onLost?.(error),
    })
    let released = false
    return async () => {
      if (released) return
      released = true
      await release().catch(() => undefined)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new AppError('CONFLICT', `Session ${sessionId} is open in another Sous process, which is writing its transcript. Close it there (or wait for that run to end), then try again.`)
    }
    throw new AppError('UNAVAILABLE', `Cannot lock the transcript of session ${sessionId}: ${(error as Error).message}`)
  }
}
