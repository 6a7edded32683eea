import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import type { Task } from './task'
import { readAllEntries, readEntry, stateOf, type FolderState, type TaskEntry } from './task-files'

/**
 * One list folder with its state kept between reads. Reading a thousand task files costs tens of
 * milliseconds on a busy machine, and agents list and claim all the time, so:
 *
 * - `.version` holds a change token. A writer (holding the list lock) sets it to `w-<random>` before
 *   it writes anything and to a fresh `<random>` when it is done, after appending `<token> <ids>` to
 *   `.journal`. A reader whose cache has the current, clean token (and the folder's mtime has not
 *   moved) reads nothing else.
 * - A cache whose token is older is brought up to date from the journal: only the files changed
 *   since are read again. A token missing from the journal (it is restarted when it grows past
 *   {@link JOURNAL_LIMIT}) means a full read.
 * - A reader keeps what it read only when the token was clean and the same before and after, so a
 *   change being written, or left half-written by a writer that crashed, is never cached.
 *
 * Files edited by hand (not through a store) are seen by a store that opens the list afterwards,
 * or when the folder's mtime moves while no change is made through a store.
 */
export class TaskFolder {
  private cached: { token: string; mtimeMs: number; state: FolderState } | undefined

  constructor(
    readonly dir: string,
    /** Journal size past which it starts afresh (tests make it small). */
    private readonly journalLimit = JOURNAL_LIMIT,
  ) {}

  /** The folder's tasks (a missing folder is an empty list). */
  read(): FolderState {
    const token = this.token()
    const mtimeMs = this.mtimeMs()
    const clean = token !== '' && !token.startsWith('w-')
    const cached = this.cached
    if (clean && cached?.token === token && cached.mtimeMs === mtimeMs) return cached.state
    let entries: Map<string, TaskEntry> | undefined
    if (clean && cached && cached.token !== token) {
      const changed = this.changedBetween(cached.token, token)
      if (changed) entries = this.refresh(cached.state.entries, changed)
    }
    const state = stateOf(entries ?? readAllEntries(this.dir))
    if (clean && this.token() === token) this.cached = { token, mtimeMs, state }
    return state
  }

  /**
   * Runs the writes of one change. The caller holds the list lock and passes the state it read
   * under it and what the writes do; that state plus the change becomes the cache.
   */
  async write(before: FolderState, change: { written: Task[]; removed: string[] }, writes: () => Promise<void>): Promise<void> {
    this.cached = undefined
    await writeFileAtomic(join(this.dir, VERSION), `w-${randomBytes(8).toString('hex')}\n`, 0o644)
    await writes()
    const entries = new Map(before.entries)
    const ids: string[] = [...change.removed]
    for (const id of change.removed) entries.delete(id)
    for (const task of change.written) {
      entries.set(task.id, { task })
      ids.push(task.id)
    }
    const token = randomBytes(8).toString('hex')
    await this.record(`${token} ${ids.join(',')}\n`)
    await writeFileAtomic(join(this.dir, VERSION), `${token}\n`, 0o644)
    this.cached = { token, mtimeMs: this.mtimeMs(), state: stateOf(entries) }
  }

  /** Appends a journal line (or starts the journal afresh when it has grown long). */
  private async record(line: string): Promise<void> {
    const file = join(this.dir, JOURNAL)
    let size = 0
    try {
      size = statSync(file).size
    } catch {
      size = 0
    }
    if (size > this.journalLimit) await writeFileAtomic(file, line, 0o644)
    else await appendFile(file, line, { mode: 0o644 })
  }

  /** Ids changed after `from` up to and including `to`, per the journal; undefined when it cannot say. */
  private changedBetween(from: string, to: string): Set<string> | undefined {
    let text: string
    try {
      text = readFileSync(join(this.dir, JOURNAL), 'utf8')
    } catch {
      return undefined
    }
    const lines = text.split('\n')
    const start = lines.findIndex((line) => line.startsWith(`${from} `))
    if (start < 0) return undefined
    const changed = new Set<string>()
    for (const line of lines.slice(start + 1)) {
      const [token, ids = ''] = line.split(' ')
      for (const id of ids.split(',')) if (id) changed.add(id)
      if (token === to) return changed
    }
    return undefined
  }

  /** The cached entries with the changed files read again (a file now missing was deleted). */
  private refresh(entries: ReadonlyMap<string, TaskEntry>, changed: Set<string>): Map<string, TaskEntry> {
    const next = new Map(entries)
    for (const id of changed) {
      const entry = readEntry(this.dir, id)
      if (entry) next.set(id, entry)
      else next.delete(id)
    }
    return next
  }

  private token(): string {
    try {
      return readFileSync(join(this.dir, VERSION), 'utf8').trim()
    } catch {
      return ''
    }
  }

  private mtimeMs(): number {
    try {
      return statSync(this.dir).mtimeMs
    } catch {
      return 0
    }
  }
}

const VERSION = '.version'
const JOURNAL = '.journal'
/** Past this size the journal starts afresh (readers with an older token then read everything). */
export const JOURNAL_LIMIT = 64 * 1024
