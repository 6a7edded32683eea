import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Message } from '../services/model/types'
import { parseTranscript, transcriptPath, TranscriptWriter } from '../store/transcript'
import type { Checkpoint } from './types'

/**
 * The conversation side of a checkpoint. A transcript is append-only, so its size when the
 * checkpoint was taken marks the conversation then: the messages of that prefix, repaired for the
 * API (a call the checkpoint came before gets the usual synthesized result). Rewinding appends a
 * `messages_replaced` line; the full history stays in the file.
 */

/** The conversation as it was at `checkpoint`. Throws when the transcript is missing or shorter than the mark. */
export async function conversationAt(home: string, checkpoint: Checkpoint): Promise<Message[]> {
  const path = transcriptPath(home, checkpoint.projectPath, checkpoint.sessionId)
  const bytes = await readFile(path).catch(() => undefined)
  if (!bytes) throw new Error(`the session's transcript is missing (${path})`)
  if (bytes.length < checkpoint.transcriptBytes) throw new Error('the transcript is shorter than it was at the checkpoint')
  const parsed = parseTranscript(bytes.subarray(0, checkpoint.transcriptBytes).toString('utf8'), { sessionId: checkpoint.sessionId, projectPath: checkpoint.projectPath })
  if (!parsed) throw new Error('the transcript cannot be read')
  return parsed.messages
}

/** Rewinds a stored session's conversation to `checkpoint`; returns how many messages it keeps. */
export async function rewindConversation(home: string, checkpoint: Checkpoint): Promise<number> {
  const messages = await conversationAt(home, checkpoint)
  TranscriptWriter.open(transcriptPath(home, checkpoint.projectPath, checkpoint.sessionId)).replaceMessages(messages, 'rewind')
  return messages.length
}

/** A new session whose conversation is the original's at `checkpoint` (the original stays as it was). Returns its id. */
export async function forkAt(home: string, checkpoint: Checkpoint): Promise<string> {
  return forkMessages(home, checkpoint.projectPath, await conversationAt(home, checkpoint))
}

/** A new session continuing a whole stored conversation (`--fork-session` without `--at`). Returns its id. */
export function forkMessages(home: string, projectPath: string, messages: readonly Message[]): string {
  const sessionId = randomUUID()
  const writer = TranscriptWriter.create(transcriptPath(home, projectPath, sessionId), { sessionId, projectPath })
  for (const message of messages) writer.appendMessage(message)
  return sessionId
}
