import { mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { appendWhole, endsWithNewline } from '../base/append-whole'
import { journalPath, type Checkpoint, type JournalEntry } from './types'

/**
 * A session's checkpoint journal: `$SOUS_HOME/checkpoints/sessions/<id>.jsonl`, one line per
 * checkpoint and one per after-state, appended synchronously (a crash loses at most the line
 * being written; a torn line is skipped on read). A line the disk refuses (ENOSPC) is taken back
 * whole (see base/append-whole.ts), so a full disk never tears one.
 */
export class Journal {
  /** Whether the file may end mid-line (a crash, a refused write that could not be cut back): the next line starts a new one. */
  private tailUnsure = true

  constructor(readonly path: string) {}

  /** The journal of `sessionId` under `home`. */
  static of(home: string, sessionId: string): Journal {
    return new Journal(journalPath(home, sessionId))
  }

  /** Appends one line, whole or not at all. Throws the disk's error (ENOSPC…); the file is then as it was. */
  append(entry: JournalEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 })
    const start = this.tailUnsure && !endsWithNewline(this.path) ? '\n' : ''
    try {
      appendWhole(this.path, `${start}${JSON.stringify(entry)}\n`, 0o600)
      this.tailUnsure = false
    } catch (error) {
      if ((error as { torn?: boolean }).torn) this.tailUnsure = true
      throw error
    }
  }

  /** The checkpoints, oldest first, with their after-states joined in; empty when there is no journal. */
  async read(): Promise<Checkpoint[]> {
    const text = await readFile(this.path, 'utf8').catch(() => '')
    const checkpoints: Checkpoint[] = []
    const byId = new Map<string, Checkpoint>()
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      let entry: JournalEntry
      try {
        entry = JSON.parse(line) as JournalEntry
      } catch {
        continue
      }
      if (entry.type === 'checkpoint') {
        const checkpoint: Checkpoint = { ...entry }
        checkpoints.push(checkpoint)
        byId.set(entry.id, checkpoint)
      } else if (entry.type === 'after') {
        const checkpoint = byId.get(entry.id)
        if (checkpoint) checkpoint.after = entry.after
      }
    }
    return checkpoints
  }
}
