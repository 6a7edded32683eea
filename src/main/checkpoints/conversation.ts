import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { AgentEvent } from '../../shared/protocol/agent-event'
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
  return (await storedAt(home, checkpoint)).messages
}

/** The messages and the stored events (the cards the app draws) of the transcript's prefix at `checkpoint`. */
async function storedAt(home: string, checkpoint: Checkpoint): Promise<{ messages: Message[]; events: AgentEvent[] }> {
  const path = transcriptPath(home, checkpoint.projectPath, checkpoint.sessionId)
  const bytes = await readFile(path).catch(() => undefined)
  if (!bytes) throw new Error(`the session's transcript is missing (${path})`)
  if (bytes.length < checkpoint.transcriptBytes) throw new Error('the transcript is shorter than it was at the checkpoint')
  const parsed = await parseTranscript(bytes.subarray(0, checkpoint.transcriptBytes).toString('utf8'), { sessionId: checkpoint.sessionId, projectPath: checkpoint.projectPath })
  if (!parsed) throw new Error('the transcript cannot be read')
  return { messages: parsed.messages, events: parsed.events }
}

/** Rewinds a stored session's conversation to `checkpoint`; returns how many messages it keeps. */
export async function rewindConversation(home: string, checkpoint: Checkpoint): Promise<number> {
  const { messages, events } = await storedAt(home, checkpoint)
  TranscriptWriter.open(transcriptPath(home, checkpoint.projectPath, checkpoint.sessionId)).rewindTo(messages, events.length)
  return messages.length
}

/** A new session whose conversation is the original's at `checkpoint` (the original stays as it was). Returns its id. */
export async function forkAt(home: string, checkpoint: Checkpoint): Promise<string> {
  const { messages, events } = await storedAt(home, checkpoint)
  return forkMessages(home, checkpoint.projectPath, messages, events)
}

/**
 * A new session continuing a whole stored conversation (`--fork-session` without `--at`). Returns
 * its id. `events` (the original's cards up to the fork) let the app draw the fork's history.
 * Throws when the disk refuses it, leaving no file of the fork.
 */
export function forkMessages(home: string, projectPath: string, messages: readonly Message[], events: readonly AgentEvent[] = []): string {
  const sessionId = randomUUID()
  const path = transcriptPath(home, projectPath, sessionId)
  try {
    const writer = TranscriptWriter.create(path, { sessionId, projectPath })
    // The cards carry the original's session id; the fork's own id goes on them.
    for (const event of events) writer.appendEvent({ ...event, sessionId })
    for (const message of messages) writer.appendMessage(message)
  } catch (error) {
    // A fork the disk refused part way is no session: nothing of it is left to resume.
    rmSync(path, { force: true })
    throw new Error(`the fork could not be written to ${path} (${error instanceof Error ? error.message : String(error)}); no session was created`)
  }
  return sessionId
}

/**
 * The turn each prompt checkpoint came before, by the engine's `turnId`: the first `turn_start`
 * with that prompt stored after the checkpoint's mark (the checkpoint is taken before the turn
 * starts). The app puts "Rewind to here" on the turn with that id.
 */
export async function promptTurnIds(home: string, checkpoints: readonly Checkpoint[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const first = checkpoints[0]
  if (!first) return out
  const bytes = await readFile(transcriptPath(home, first.projectPath, first.sessionId)).catch(() => undefined)
  if (!bytes) return out
  const starts: Array<{ offset: number; turnId: string; prompt: string }> = []
  let offset = 0
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset)
    const stop = end < 0 ? bytes.length : end
    // Cheap test first: only event lines naming turn_start are parsed.
    const line = bytes.subarray(offset, stop)
    if (line.includes('"turn_start"')) {
      try {
        const entry = JSON.parse(line.toString('utf8')) as { type?: string; event?: { type?: string; turnId?: string; prompt?: string } }
        if (entry.type === 'event' && entry.event?.type === 'turn_start' && entry.event.turnId) starts.push({ offset, turnId: entry.event.turnId, prompt: entry.event.prompt ?? '' })
      } catch {
        // A torn line is no turn.
      }
    }
    offset = stop + 1
  }
  for (const checkpoint of checkpoints) {
    if (checkpoint.trigger.kind !== 'prompt') continue
    const prompt = checkpoint.trigger.prompt
    const start = starts.find((candidate) => candidate.offset >= checkpoint.transcriptBytes && candidate.prompt.slice(0, 500) === prompt)
    if (start) out.set(checkpoint.id, start.turnId)
  }
  return out
}
