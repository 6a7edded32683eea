import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { Message } from '../services/model/types'
import { TranscriptWriter, type TranscriptEntry } from './transcript'

/** Event types a transcript does not keep: deltas, progress and running summaries (replayable from the messages, or noise) and sizes (recomputed). */
const NOT_KEPT = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_progress', 'tool_summary', 'context_status'])

/** Whether a transcript keeps this event (the session's and every subagent's alike). */
export function keptInTranscript(event: AgentEvent): boolean {
  return !NOT_KEPT.has(event.type)
}

/**
 * What a transcript file says about its saving, each once per change: `failing` when a write was
 * refused (the disk is full…) and lines are held in memory; `saved` when writing worked again and
 * the held lines were written, in order; `lost` when the file was closed with lines still held.
 * `capped` when the held lines reached {@link TranscriptFileOptions.holdLimitBytes}: saving stops there
 * for good (the held lines are still written when the disk takes them; nothing said after them is).
 * `error` is the refusal as the system gave it (`ENOSPC: no space left on device, open '…'`).
 */
export type TranscriptSaveReport =
  | { kind: 'failing'; path: string; error: string; held: number }
  | { kind: 'saved'; path: string; written: number }
  | { kind: 'capped'; path: string; error: string; held: number; limitBytes: number }
  | { kind: 'lost'; path: string; error: string; lost: number }

/** Default {@link TranscriptFileOptions.holdLimitBytes}: a long stretch of a session, and still far from what memory can bear. */
export const HOLD_LIMIT_BYTES = 32 * 1024 * 1024

/** How a transcript file behaves on a full disk. */
export interface TranscriptFileOptions {
  /** How much may wait in memory (the lines' size in UTF-8, as they go to disk) before saving stops; {@link HOLD_LIMIT_BYTES} unless set. */
  holdLimitBytes?: number
}

/**
 * One transcript file (a session's, or a subagent's sidechain), written line by line as things
 * happen: created with its header on the first line written, so a conversation that never said
 * anything leaves no file, or continued when it exists already (a resumed session, an agent
 * started again). The one way a conversation's messages and events reach disk.
 *
 * Contract: appending never throws. A write the disk refuses leaves the file as it was (no torn
 * line) and the entry is held in memory, with every entry after it, until a later append finds
 * the disk writable again; then they are written in order, stamped with the time they happened.
 * `report` hears each change of state once (see {@link TranscriptSaveReport}), so the session
 * goes on and the user is told, instead of the turn ending with the error.
 *
 * What waits is capped ({@link TranscriptFileOptions.holdLimitBytes}), so a disk that stays full
 * cannot make memory grow without bound. Past the cap the file stops for good: the held entries
 * are still written (they follow what is on disk without a gap) but every later one is counted as
 * lost, even when the disk takes writes again. Writing later ones would leave a gap that what
 * follows depends on (a tool result whose call was dropped, a message_end of a lost message), and
 * the reader cannot tell a gap from a conversation; a file that simply ends is what a crash leaves,
 * and resumes cleanly (calls left open get synthesized results).
 */
export class TranscriptFile {
  private writer: TranscriptWriter | undefined
  /** Entries not on disk yet, oldest first, serialized (one line each) with their size in UTF-8. */
  private held: Array<{ line: string; bytes: number }> = []
  /** The size of {@link held}'s lines in UTF-8, as they go to disk. */
  private heldBytes = 0
  /** The refusal that made the entries wait, while they wait. */
  private failing: string | undefined
  /** Entries dropped since the cap was reached (undefined until it is): none is written after. */
  private dropped: number | undefined
  private readonly holdLimitBytes: number

  constructor(
    readonly path: string,
    private readonly header: { sessionId: string; projectPath: string },
    /** The file exists already. */
    existing = false,
    private readonly report?: (report: TranscriptSaveReport) => void,
    options: TranscriptFileOptions = {},
  ) {
    this.holdLimitBytes = options.holdLimitBytes ?? HOLD_LIMIT_BYTES
    if (existing) this.writer = TranscriptWriter.open(path)
  }

  appendMessage(message: Message): void {
    this.append({ type: 'message', at: stamp(), message })
  }

  /** Writes the event as it is; callers skip what {@link keptInTranscript} leaves out. */
  appendEvent(event: AgentEvent): void {
    this.append({ type: 'event', at: stamp(), event })
  }

  setTitle(title: string): void {
    this.append({ type: 'title', at: stamp(), title })
  }

  /** The conversation was replaced (a compaction, a repair): a boundary line; every earlier line stays. */
  replaceMessages(messages: Message[], why: 'compaction' | 'repair', compaction?: CompactionRecord): void {
    this.append({ type: 'messages_replaced', at: stamp(), why, messages, ...(compaction && { compaction }) })
  }

  /**
   * The owner is done with the file (the session closes): one last try at the held entries. Returns
   * (and reports) what could not be saved, if anything; the held entries are then let go.
   */
  close(): TranscriptSaveReport | undefined {
    if (this.held.length > 0) this.flush()
    const count = this.held.length + (this.dropped ?? 0)
    if (count === 0) return undefined
    const lost: TranscriptSaveReport = { kind: 'lost', path: this.path, error: this.failing ?? this.stoppedBy ?? 'not written', lost: count }
    this.held = []
    this.heldBytes = 0
    this.failing = undefined
    this.dropped = undefined
    this.report?.(lost)
    return lost
  }

  /** The refusal saving stopped on, once capped (kept for the close's report). */
  private stoppedBy: string | undefined

  private append(entry: TranscriptEntry): void {
    if (this.dropped !== undefined) {
      // Stopped: the held prefix may still go to disk, nothing after the gap may.
      if (this.held.length > 0) this.flush()
      this.dropped++
      return
    }
    const line = `${JSON.stringify(entry)}\n`
    const bytes = Buffer.byteLength(line)
    if (this.failing !== undefined && this.heldBytes + bytes > this.holdLimitBytes) {
      this.dropped = 1
      this.stoppedBy = this.failing
      this.report?.({ kind: 'capped', path: this.path, error: this.failing, held: this.held.length, limitBytes: this.holdLimitBytes })
      if (this.held.length > 0) this.flush()
      return
    }
    this.held.push({ line, bytes })
    this.heldBytes += bytes
    this.flush()
  }

  /** Writes the held entries in order, stopping at the first the disk refuses. */
  private flush(): void {
    const waited = this.failing !== undefined ? this.held.length : 0
    try {
      this.writer ??= TranscriptWriter.create(this.path, this.header)
      while (this.held.length > 0) {
        this.writer.writeLine(this.held[0]!.line)
        this.heldBytes -= this.held.shift()!.bytes
      }
    } catch (error) {
      if (this.failing !== undefined) return
      this.failing = error instanceof Error ? error.message : String(error)
      this.report?.({ kind: 'failing', path: this.path, error: this.failing, held: this.held.length })
      return
    }
    if (this.failing === undefined) return
    this.failing = undefined
    // Capped: the prefix is on disk, but saving has not come back (the close says what was lost).
    if (this.dropped !== undefined) return
    this.report?.({ kind: 'saved', path: this.path, written: waited })
  }
}

function stamp(): string {
  return new Date().toISOString()
}
