import { randomUUID } from 'node:crypto'
import type { MemoryScope } from '../../shared/memory'
import type { MemoryFolder } from './folder'

/**
 * Recent changes to memory folders, so each can be taken back. A change is a list of file states
 * it replaced (`before`: the old text, or nothing for a file it created) and the version it left
 * (`after`: or `null` for a file it removed). Undo restores them in reverse, but only while every
 * file is still as the change left it: an edit made since is never thrown away (CONFLICT).
 * Kept in memory for the life of the process, the newest {@link KEEP} changes.
 */

/** One file a change touched. */
export interface ChangeStep {
  file: string
  before: string | undefined
  after: string | null
}

/** A change that can be undone. */
export interface RecordedChange {
  folder: MemoryFolder
  scope: MemoryScope
  steps: ChangeStep[]
  /** The memory's name, for the message after an undo. */
  name: string
}

const KEEP = 500

export class ChangeLog {
  private readonly changes = new Map<string, RecordedChange>()

  /** Records a change and returns its id. */
  record(change: RecordedChange): string {
    const id = randomUUID()
    this.changes.set(id, change)
    if (this.changes.size > KEEP) this.changes.delete(this.changes.keys().next().value as string)
    return id
  }

  /** The change, or `undefined` when it is unknown or too old. */
  get(id: string): RecordedChange | undefined {
    return this.changes.get(id)
  }

  /** Forgets a change (once undone, it cannot be undone twice). */
  forget(id: string): void {
    this.changes.delete(id)
  }
}
