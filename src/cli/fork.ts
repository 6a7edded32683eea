import { AppError } from '../shared/ipc/result'
import { forkAt, forkMessages } from '../main/checkpoints/conversation'
import { findCheckpoint } from '../main/checkpoints/rewind'
import { findTranscriptFile, loadStoredTranscript } from '../main/store/session-index'
import { isSessionId } from '../main/store/transcript'

/**
 * `--fork-session --resume <id> [--at <checkpoint-id>]`: a new session whose conversation is the
 * stored one's (up to the checkpoint); the original is left as it was, and so are the files (run
 * `sous rewind --code` first to restore them too). Returns the new session's id; bad input is an
 * AppError the print command reports.
 */
export async function forkSession(home: string, sessionId: string, at: string | undefined, cwd: string): Promise<string> {
  if (!isSessionId(sessionId)) throw new AppError('INVALID_INPUT', `not a session id: ${sessionId}`)
  if (at !== undefined) {
    const found = await findCheckpoint(home, sessionId, at, cwd)
    if ('error' in found) throw new AppError('INVALID_INPUT', found.error)
    return forkAt(home, found.checkpoints[found.index]!)
  }
  const file = await findTranscriptFile(home, sessionId)
  const stored = file ? await loadStoredTranscript(file) : undefined
  if (!stored) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
  return forkMessages(home, stored.projectPath, stored.messages, stored.events)
}

