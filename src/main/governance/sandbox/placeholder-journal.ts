import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { processAlive } from '../../base/process-alive'

/** What identifies a file or folder Sous made: it is still that one only while these match. */
export interface Identity {
  dev: number
  ino: number
  size: number
}

/** One placeholder as the journal records it (see `placeholders.ts`). */
export interface JournalEntry {
  path: string
  /** The topmost folder made for it. */
  top: string
  folder?: boolean
  id: Identity
  /** The ignore file a folder in the working tree holds. */
  ignore?: Identity
}

const NAME = /^placeholders-(\d+)\.json$/

/**
 * The placeholders a process has standing in the projects now, one file per process in a folder
 * of the Sous home (`sandbox/placeholders-<pid>.json`), so that the ones a process left when it
 * crashed or was killed mid-command — empty `.bashrc/`, `.mcp.json/`, `.vscode/` folders in the
 * user's projects — are removed by the next Sous to start. Written whole (a temporary file
 * renamed over it); removed when none is left. Contract: never throws; a journal that cannot be
 * written only leaves that clean-up undone.
 */
export function writeJournal(file: string, entries: readonly JournalEntry[]): void {
  try {
    if (entries.length === 0) {
      unlinkSync(file)
      return
    }
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(entries))
    renameSync(temporary, file)
  } catch {
    // No journal (or none to remove): nothing for a later start to clean.
  }
}

/**
 * Gives every placeholder in the journals of processes that are gone to `remove` (last made
 * first), then deletes those journals. A live process's journal is left alone; so is this
 * process's, unless `ownIsStale`: a journal under this process's id that this process never wrote
 * is an earlier one's with the same id (a container starts Sous with the same id every time).
 * Contract: never throws.
 */
export function sweepJournals(dir: string, remove: (entry: JournalEntry) => void, ownIsStale = false): void {
  let names: string[]
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1])
    if (!pid || (pid === process.pid ? !ownIsStale : processAlive(pid))) continue
    const file = join(dir, name)
    let entries: JournalEntry[] = []
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
      if (Array.isArray(parsed)) entries = parsed.filter(isEntry)
    } catch {
      // A torn or foreign file: nothing in it is trusted.
    }
    for (const entry of entries.reverse()) remove(entry)
    try {
      unlinkSync(file)
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

function isEntry(value: unknown): value is JournalEntry {
  const entry = value as JournalEntry
  return typeof entry === 'object' && entry !== null && typeof entry.path === 'string' && typeof entry.top === 'string' && isIdentity(entry.id) && (entry.ignore === undefined || isIdentity(entry.ignore))
}

function isIdentity(value: unknown): value is Identity {
  const id = value as Identity
  return typeof id === 'object' && id !== null && typeof id.dev === 'number' && typeof id.ino === 'number' && typeof id.size === 'number'
}
