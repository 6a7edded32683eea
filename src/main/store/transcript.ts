import { chmodSync, mkdirSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import { appendWhole, endsWithNewline } from '../base/append-whole'
import { projectDataDir } from '../base/paths'
import type { Message } from '../services/model/types'
import type * as TranscriptLines from './transcript-lines'
import type { TranscriptEntry } from './transcript-lines'
import { interruptedCallEnds } from './interrupted-calls'
import { repairMessages } from './transcript-repair'

/**
 * Session transcripts: one append-only JSONL file per session at
 * `$SOUS_HOME/projects/<slug>/sessions/<id>.jsonl`. Each line is written synchronously as it
 * happens, so a crash loses at most the line being written: on load a torn last line is left out,
 * and a writer that continues the file ends that torn line first, so what it appends is kept. A
 * write the disk refuses (full) is taken back whole (see base/append-whole.ts): it never tears a line.
 */

export type { TranscriptEntry } from './transcript-lines'

/** What a session id looks like. It names a file, so nothing in it may lead out of its folder. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/

/** Whether `value` can be a session id (checked before any id from outside becomes a path). */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value)
}

/** Path of a session's transcript. Throws for an id that could leave the folder (a bug: ids are checked at the edge). */
export function transcriptPath(home: string, projectPath: string, sessionId: string): string {
  if (!isSessionId(sessionId)) throw new Error(`not a session id: ${JSON.stringify(sessionId.slice(0, 50))}`)
  return join(sessionsDir(home, projectPath), `${sessionId}.jsonl`)
}

/** Folder holding a project's transcripts. */
export function sessionsDir(home: string, projectPath: string): string {
  return join(projectDataDir(home, projectPath), 'sessions')
}

/** Appends entries to one transcript file. */
export class TranscriptWriter {
  /** Whether the file may end mid-line (a crash before this writer, a write whose part could not be taken back). */
  private tailUnsure: boolean

  private constructor(readonly path: string, tailUnsure: boolean) {
    this.tailUnsure = tailUnsure
  }

  /**
   * Starts a new transcript (creates folders, writes the header line). Throws when the disk
   * refuses (the file then holds no part of the header).
   */
  static create(path: string, header: { sessionId: string; projectPath: string; createdAt?: string }): TranscriptWriter {
    makePrivateFolder(dirname(path))
    // A file left by an earlier try whose header could not be written may be there already.
    const writer = new TranscriptWriter(path, true)
    writer.write({ type: 'session', version: 1, sessionId: header.sessionId, projectPath: header.projectPath, createdAt: header.createdAt ?? new Date().toISOString() })
    return writer
  }

  /**
   * Continues an existing transcript. A file cut mid-line by a crash gets its line ended before the
   * first entry this writer appends; otherwise that entry would be glued to the torn one and lost with it.
   */
  static open(path: string): TranscriptWriter {
    return new TranscriptWriter(path, true)
  }

  appendMessage(message: Message): void {
    this.write({ type: 'message', at: now(), message })
  }

  appendEvent(event: AgentEvent): void {
    this.write({ type: 'event', at: now(), event })
  }

  setTitle(title: string): void {
    this.write({ type: 'title', at: now(), title })
  }

  replaceMessages(messages: Message[], why: 'compaction' | 'repair' | 'rewind', compaction?: CompactionRecord): void {
    this.write({ type: 'messages_replaced', at: now(), why, messages, ...(compaction && { compaction }) })
  }

  /** A rewind to a checkpoint: the conversation then, and how many stored events (cards) it keeps. */
  rewindTo(messages: Message[], keepEvents: number): void {
    this.write({ type: 'messages_replaced', at: now(), why: 'rewind', messages, keepEvents })
  }

  /**
   * Appends one entry as one line, whole or not at all. Throws the disk's error (ENOSPC…) when it
   * could not be written; the file is then as it was.
   */
  write(entry: TranscriptEntry): void {
    this.writeLine(`${JSON.stringify(entry)}\n`)
  }

  /** {@link write} for an entry already serialized (`JSON.stringify(entry) + '\n'`), so a caller that measured it does not serialize it twice. */
  writeLine(line: string): void {
    const start = this.tailUnsure && !endsWithNewline(this.path) ? '\n' : ''
    try {
      // Transcripts hold everything the agent read: only the user may read them (the mode applies on creation).
      appendWhole(this.path, start + line, 0o600)
      this.tailUnsure = false
    } catch (error) {
      if ((error as { torn?: boolean }).torn) this.tailUnsure = true
      throw error
    }
  }
}

/**
 * Creates a transcript folder (and the project folder above it) readable by the user alone, and
 * tightens them when an older version left them open.
 */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  for (const folder of [dir, dirname(dir)]) {
    try {
      chmodSync(folder, 0o700)
    } catch {
      // Not ours to change (a shared mount): the files themselves are still 0600.
    }
  }
}

/** A transcript read back, repaired for the API. */
export interface LoadedTranscript {
  sessionId: string
  projectPath: string
  createdAt: string
  /** Time of the last entry. */
  updatedAt: string
  title: string | undefined
  /** The conversation, valid for the API (see {@link repairMessages}). */
  messages: Message[]
  /** Persisted AgentEvents (no deltas), oldest first. */
  events: AgentEvent[]
  /** When each of `events` was written (ms since the epoch, from its line's `at`): a replay's clock. */
  eventTimes: number[]
  /** True when a line was skipped or mended, or orphan tool calls got synthesized results. */
  repaired: boolean
  /** Lines that could not be read and were left out (1-based), with why. */
  skipped: Array<{ line: number; problem: string }>
}

/** What a transcript without a readable header is taken to be (its file name, a sibling's project). */
export interface TranscriptFallback {
  sessionId: string
  projectPath?: string
  /** When it was last written (the file's modification time). */
  modifiedAt?: string
}

let lineReader: Promise<typeof TranscriptLines> | undefined

/**
 * Reads and repairs a transcript; `undefined` when the file is missing, or when it has no readable
 * header and no fallback says whose it is. Never throws.
 */
export async function loadTranscript(path: string, fallback?: Omit<TranscriptFallback, 'sessionId'>): Promise<LoadedTranscript | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  const modifiedAt = fallback?.modifiedAt ?? (await stat(path).then((s) => s.mtime.toISOString(), () => undefined))
  return parseTranscript(text, { ...fallback, sessionId: basename(path, '.jsonl'), ...(modifiedAt && { modifiedAt }) })
}

/**
 * Parses transcript text (see {@link loadTranscript}). A line that cannot be read is skipped and
 * listed in `skipped`; one that can be mended (a message block the API would refuse) is mended.
 * Without a readable header, `fallback` supplies the id and project (when it knows the project).
 */
export async function parseTranscript(text: string, fallback?: TranscriptFallback): Promise<LoadedTranscript | undefined> {
  // The line reader checks each event against the protocol's zod schemas: built on the first
  // transcript read, not as the store loads (a new session, as `sous -p` opens, reads none).
  const { readLine } = await (lineReader ??= import('./transcript-lines'))
  const skipped: LoadedTranscript['skipped'] = []
  let mended = false
  let header: Extract<TranscriptEntry, { type: 'session' }> | undefined
  let messages: Message[] = []
  const events: AgentEvent[] = []
  const eventTimes: number[] = []
  let title: string | undefined
  let updatedAt = ''
  let firstAt = ''
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    const reading = readLine(line)
    if ('problem' in reading) {
      skipped.push({ line: index + 1, problem: reading.problem })
      return
    }
    const entry = reading.entry
    mended ||= reading.repaired
    if ('at' in entry) {
      updatedAt = entry.at
      firstAt ||= entry.at
    }
    switch (entry.type) {
      case 'session':
        header ??= entry
        updatedAt ||= entry.createdAt
        break
      case 'message':
        messages.push(entry.message)
        break
      case 'event':
        events.push(entry.event)
        eventTimes.push(Date.parse(entry.at))
        break
      case 'title':
        title = entry.title
        break
      case 'messages_replaced':
        messages = [...entry.messages]
        // A rewind redraws the conversation as it was at the checkpoint.
        if (entry.keepEvents !== undefined) events.length = Math.min(events.length, entry.keepEvents)
        break
    }
  })
  const identity = header ?? recovered(fallback, firstAt)
  if (!identity) return undefined
  const repair = repairMessages(messages)
  // The conversation was cut mid-turn: the calls it cut are shown as interrupted (dated as its last line).
  if (repair.repaired) {
    const ends = interruptedCallEnds(events)
    events.push(...ends)
    eventTimes.push(...ends.map(() => Date.parse(updatedAt || identity.createdAt)))
  }
  return {
    sessionId: identity.sessionId,
    projectPath: identity.projectPath,
    createdAt: identity.createdAt,
    updatedAt: updatedAt || identity.createdAt,
    title,
    messages: repair.messages,
    events,
    eventTimes,
    repaired: skipped.length > 0 || mended || repair.repaired || !header,
    skipped,
  }
}

/** The header a transcript would have had, when the fallback knows whose it is. */
function recovered(fallback: TranscriptFallback | undefined, firstAt: string): { sessionId: string; projectPath: string; createdAt: string } | undefined {
  if (!fallback?.projectPath) return undefined
  const createdAt = firstAt || fallback.modifiedAt || new Date(0).toISOString()
  return { sessionId: fallback.sessionId, projectPath: fallback.projectPath, createdAt }
}

function now(): string {
  return new Date().toISOString()
}
