import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { Message } from '../services/model/types'
import { TranscriptWriter } from './transcript'

/** Event types a transcript does not keep: deltas, progress and running summaries (replayable from the messages, or noise) and sizes (recomputed). */
const NOT_KEPT = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_progress', 'tool_summary', 'context_status'])

/** Whether a transcript keeps this event (the session's and every subagent's alike). */
export function keptInTranscript(event: AgentEvent): boolean {
  return !NOT_KEPT.has(event.type)
}

/**
 * One transcript file (a session's, or a subagent's sidechain), written line by line as things
 * happen: created with its header on the first line written, so a conversation that never said
 * anything leaves no file, or continued when it exists already (a resumed session, an agent
 * started again). The one way a conversation's messages and events reach disk.
 */
export class TranscriptFile {
  private writer: TranscriptWriter | undefined

  constructor(
    readonly path: string,
    private readonly header: { sessionId: string; projectPath: string },
    /** The file exists already. */
    existing = false,
  ) {
    if (existing) this.writer = TranscriptWriter.open(path)
  }

  appendMessage(message: Message): void {
    this.file().appendMessage(message)
  }

  /** Writes the event as it is; callers skip what {@link keptInTranscript} leaves out. */
  appendEvent(event: AgentEvent): void {
    this.file().appendEvent(event)
  }

  setTitle(title: string): void {
    this.file().setTitle(title)
  }

  /** The conversation was replaced (a compaction, a repair): a boundary line; every earlier line stays. */
  replaceMessages(messages: Message[], why: 'compaction' | 'repair', compaction?: CompactionRecord): void {
    this.file().replaceMessages(messages, why, compaction)
  }

  private file(): TranscriptWriter {
    this.writer ??= TranscriptWriter.create(this.path, this.header)
    return this.writer
  }
}
