import { appendFileSync, chmodSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { projectDataDir } from '../base/paths'
import type { Message } from '../services/model/types'
import { repairMessages } from './transcript-repair'

/**
 * Session transcripts: one append-only JSONL file per session at
 * `$SOUS_HOME/projects/<slug>/sessions/<id>.jsonl`. Each line is written synchronously as it
 * happens, so a crash loses at most the line being written: on load a torn last line is left out,
 * and a writer that continues the file ends that torn line first, so what it appends is kept.
 */

/** One line of a transcript. */
export type TranscriptEntry =
  | { type: 'session'; version: 1; sessionId: string; projectPath: string; createdAt: string }
  | { type: 'message'; at: string; message: Message }
  | { type: 'event'; at: string; event: AgentEvent }
  | { type: 'title'; at: string; title: string }
  /** The conversation was replaced (compaction, or a repair on resume); later messages append to these. */
  | { type: 'messages_replaced'; at: string; why: 'compaction' | 'repair'; messages: Message[] }

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
  private constructor(readonly path: string) {}

  /** Starts a new transcript (creates folders, writes the header line). */
  static create(path: string, header: { sessionId: string; projectPath: string; createdAt?: string }): TranscriptWriter {
    makePrivateFolder(dirname(path))
    const writer = new TranscriptWriter(path)
    writer.append({ type: 'session', version: 1, sessionId: header.sessionId, projectPath: header.projectPath, createdAt: header.createdAt ?? new Date().toISOString() })
    return writer
  }

  /**
   * Continues an existing transcript. A file cut mid-line by a crash gets its line ended first;
   * otherwise the next entry would be glued to the torn one and lost with it.
   */
  static open(path: string): TranscriptWriter {
    if (!endsWithNewline(path)) appendFileSync(path, '\n')
    return new TranscriptWriter(path)
  }

  appendMessage(message: Message): void {
    this.append({ type: 'message', at: now(), message })
  }

  appendEvent(event: AgentEvent): void {
    this.append({ type: 'event', at: now(), event })
  }

  setTitle(title: string): void {
    this.append({ type: 'title', at: now(), title })
  }

  replaceMessages(messages: Message[], why: 'compaction' | 'repair'): void {
    this.append({ type: 'messages_replaced', at: now(), why, messages })
  }

  private append(entry: TranscriptEntry): void {
    // One write per line; a crash mid-write leaves at most a torn last line, which load ignores.
    // Transcripts hold everything the agent read: only the user may read them (the mode applies on creation).
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 })
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
  /** True when a torn line was skipped or orphan tool calls got synthesized results. */
  repaired: boolean
}

/** Reads and repairs a transcript; `undefined` when the file is missing or has no valid header. */
export async function loadTranscript(path: string): Promise<LoadedTranscript | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  return parseTranscript(text)
}

/** Parses transcript text (see {@link loadTranscript}). */
export function parseTranscript(text: string): LoadedTranscript | undefined {
  const lines = text.split('\n')
  let torn = false
  let header: Extract<TranscriptEntry, { type: 'session' }> | undefined
  let messages: Message[] = []
  const events: AgentEvent[] = []
  let title: string | undefined
  let updatedAt = ''
  for (const line of lines) {
    if (line.trim() === '') continue
    const entry = parseLine(line)
    if (!entry) {
      // A line torn by a crash, or one that is not an entry at all: left out, and the load says
      // it repaired something.
      torn = true
      continue
    }
    if ('at' in entry) updatedAt = entry.at
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
        break
      case 'title':
        title = entry.title
        break
      case 'messages_replaced':
        messages = [...entry.messages]
        break
    }
  }
  if (!header) return undefined
  const repair = repairMessages(messages)
  return {
    sessionId: header.sessionId,
    projectPath: header.projectPath,
    createdAt: header.createdAt,
    updatedAt,
    title,
    messages: repair.messages,
    events,
    repaired: torn || repair.repaired,
  }
}

/** One line as an entry; undefined when it is not JSON or lacks what its type needs. */
function parseLine(line: string): TranscriptEntry | undefined {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  return isEntry(value) ? value : undefined
}

/** The shape each entry type needs before the loader trusts it (the messages are repaired later). */
function isEntry(value: unknown): value is TranscriptEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  const isObject = (field: unknown): boolean => typeof field === 'object' && field !== null
  switch (entry['type']) {
    case 'session':
      return typeof entry['sessionId'] === 'string' && typeof entry['projectPath'] === 'string' && typeof entry['createdAt'] === 'string'
    case 'message':
      return isObject(entry['message']) && typeof (entry['message'] as Record<string, unknown>)['role'] === 'string'
    case 'event':
      return isObject(entry['event']) && typeof (entry['event'] as Record<string, unknown>)['type'] === 'string'
    case 'title':
      return typeof entry['title'] === 'string'
    case 'messages_replaced':
      return Array.isArray(entry['messages'])
    default:
      return false
  }
}

/** Whether the file ends with a newline (or is empty); a missing file counts as ended. */
function endsWithNewline(path: string): boolean {
  let descriptor: number
  try {
    descriptor = openSync(path, 'r')
  } catch {
    return true
  }
  try {
    const size = fstatSync(descriptor).size
    if (size === 0) return true
    const last = Buffer.alloc(1)
    readSync(descriptor, last, 0, 1, size - 1)
    return last[0] === 0x0a
  } finally {
    closeSync(descriptor)
  }
}

function now(): string {
  return new Date().toISOString()
}
