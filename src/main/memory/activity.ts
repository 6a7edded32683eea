import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Which sessions recalled or wrote which memory: one JSON line per event in
 * `$SOUS_HOME/memory-activity.jsonl`, so the memory browser can show, for each memory, the
 * sessions that used it without reading every transcript. Transcripts stay the record of a turn
 * (its `memory_recall` and `memory_write` events); this file is the reverse index.
 */

/** One line of the log. */
export interface ActivityEntry {
  at: number
  sessionId: string
  projectPath: string
  /** The memory file's absolute path. */
  path: string
  action: 'recalled' | 'created' | 'updated'
}

/** The log is read whole; past this size only its newest part is read. */
const MAX_READ_BYTES = 4 * 1024 * 1024

export class ActivityLog {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly file: string) {}

  /** Appends entries; a failure to write is reported to `onError`, never thrown (it is a convenience index). */
  append(entries: readonly ActivityEntry[], onError?: (error: unknown) => void): Promise<void> {
    if (entries.length === 0) return Promise.resolve()
    const text = entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n'
    const run = this.queue.then(async () => {
      await mkdir(dirname(this.file), { recursive: true })
      await appendFile(this.file, text, { mode: 0o600 })
    })
    this.queue = run.catch((error: unknown) => onError?.(error))
    return this.queue as Promise<void>
  }

  /** Entries about one memory file, newest first; lines that are not entries are skipped. */
  async about(path: string): Promise<ActivityEntry[]> {
    await this.queue
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch {
      return []
    }
    if (text.length > MAX_READ_BYTES) text = text.slice(text.indexOf('\n', text.length - MAX_READ_BYTES) + 1)
    const found: ActivityEntry[] = []
    for (const line of text.split('\n')) {
      if (!line.includes(path)) continue
      try {
        const entry = JSON.parse(line) as ActivityEntry
        if (entry.path === path && typeof entry.sessionId === 'string' && typeof entry.at === 'number') found.push(entry)
      } catch {
        // A torn or foreign line: skipped.
      }
    }
    return found.reverse()
  }
}
