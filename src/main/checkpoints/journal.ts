import { appendFileSync, mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { journalPath, type Checkpoint, type JournalEntry } from './types'

/**
 * A session's checkpoint journal: `$SOUS_HOME/checkpoints/sessions/<id>.jsonl`, one line per
 * checkpoint and one per after-state, appended synchronously (a crash loses at most the line
 * being written; a torn line is skipped on read).
 */
export class Journal {
  constructor(readonly path: string) {}

  /** The journal of `sessionId` under `home`. */
  static of(home: string, sessionId: string): Journal {
    return new Journal(journalPath(home, sessionId))
  }

  append(entry: JournalEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 })
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 })
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
