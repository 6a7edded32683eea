import { createHash } from 'node:crypto'
import { link, lstat, mkdir, readdir, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/ipc/result'
import { INDEX_FILE, isWritableMemoryFile, memoryProblems, type MemoryFields, type MemoryProblem, type MemoryType } from '../../shared/memory'
import { writeFileAtomic } from '../base/atomic-write'
import { loadYaml, parseMemory, serializeMemory } from './format'
import { foreignLines, renderIndex, type IndexEntry } from './index-file'

/**
 * One memory folder on disk: its memory files and their `MEMORY.md` index. Files written by hand
 * or by another tool are read and validated like Sous's own; one that is not a valid memory is
 * listed with its problems, never dropped. Every write is atomic, checks the version the writer
 * last saw (a file changed on disk since is a CONFLICT, not an overwrite), refuses symbolic links,
 * and regenerates the index. Writes of one folder are serialized.
 *
 * Over 300 lines because reading, writing and re-indexing share one per-folder queue and one cache
 * of records: split apart, each half would need the other's private state.
 */

/** A memory file as the folder holds it. */
export interface MemoryRecord {
  file: string
  path: string
  fields: MemoryFields
  /** Frontmatter keys of other tools, kept on rewrite. */
  extra: Record<string, unknown>
  /** Empty for a valid memory. */
  problems: MemoryProblem[]
  /** The file shares its name with an older memory of the folder (listed, but flagged). */
  duplicateOf?: string
  /** Last modification, in ms since the epoch. */
  updatedAt: number
  /** A hash of the file's bytes: what a writer must name to replace it. */
  version: string
}

/** What a write replaced: the old text, or nothing for a new file (what undo needs). */
export interface WriteOutcome {
  record: MemoryRecord
  previous?: string
}

/** Larger files are listed as problems rather than read whole. */
const MAX_FILE_BYTES = 512 * 1024

/** The memory that keeps lines a person or another tool wrote into `MEMORY.md`. */
export const KEPT_NOTES_FILE = 'reference_notes_kept_from_memory_md.md'

export class MemoryFolder {
  private readonly cache = new Map<string, { stamp: string; record: MemoryRecord }>()
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly dir: string) {}

  /** Every memory file of the folder, by file name; a missing folder is empty. */
  async list(): Promise<MemoryRecord[]> {
    let names: Array<{ name: string; link: boolean; file: boolean }>
    try {
      const entries = await readdir(this.dir, { withFileTypes: true })
      names = entries.map((entry) => ({ name: entry.name, link: entry.isSymbolicLink(), file: entry.isFile() }))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw new AppError('UNAVAILABLE', `Cannot read the memory folder ${this.dir}: ${(error as Error).message}`)
    }
    const candidates = names.filter((entry) => entry.name.toLowerCase().endsWith('.md') && entry.name !== INDEX_FILE && (entry.file || entry.link))
    const records = await Promise.all(candidates.map((entry) => this.load(entry.name)))
    const present = new Set(candidates.map((entry) => entry.name))
    for (const file of this.cache.keys()) if (!present.has(file)) this.cache.delete(file)
    return flagDuplicates(records.filter((record): record is MemoryRecord => record !== undefined).sort((a, b) => a.file.localeCompare(b.file)))
  }

  /** One memory file, or `undefined` when it does not exist. */
  async read(file: string): Promise<MemoryRecord | undefined> {
    checkReadable(file)
    return this.load(file)
  }

  /**
   * Writes a memory. `expectedVersion` is the version the writer last saw, `null` when it means to
   * create the file; any other state on disk is a CONFLICT. Invalid fields are refused
   * (INVALID_INPUT) before anything is written.
   */
  write(file: string, fields: MemoryFields, expectedVersion: string | null): Promise<WriteOutcome> {
    return this.serial(async () => {
      checkWritable(file)
      await this.validate(fields, file)
      const current = await this.current(file)
      expectVersion(file, current, expectedVersion)
      const library = await loadYaml()
      const text = serializeMemory(fields, current?.record.extra ?? {}, library)
      await mkdir(this.dir, { recursive: true, mode: 0o700 })
      await writeFileAtomic(join(this.dir, file), text)
      await this.syncIndexNow()
      const record = await this.load(file)
      if (!record) throw new AppError('UNAVAILABLE', `${file} was written but cannot be read back.`)
      return { record, ...(current && { previous: current.text }) }
    })
  }

  /** Puts back a file's exact earlier text (undo), or removes it when `text` is undefined. */
  restore(file: string, text: string | undefined, expectedVersion: string | null): Promise<void> {
    return this.serial(async () => {
      checkReadable(file)
      const current = await this.current(file)
      expectVersion(file, current, expectedVersion)
      if (text === undefined) await unlink(join(this.dir, file)).catch(ignoreMissing)
      else {
        await mkdir(this.dir, { recursive: true, mode: 0o700 })
        await writeFileAtomic(join(this.dir, file), text)
      }
      await this.syncIndexNow()
    })
  }

  /** Deletes a memory the caller has seen at `expectedVersion`; returns its text (for undo). */
  remove(file: string, expectedVersion: string): Promise<string> {
    return this.serial(async () => {
      checkReadable(file)
      const current = await this.current(file)
      expectVersion(file, current, expectedVersion)
      await unlink(join(this.dir, file))
      await this.syncIndexNow()
      return current!.text
    })
  }

  /**
   * Renames a memory file (and sets its `name`), never over an existing file. The new file is
   * written first (atomically, as a link that fails if the name is taken), then the old removed.
   */
  rename(file: string, to: string, fields: MemoryFields, expectedVersion: string): Promise<WriteOutcome> {
    return this.serial(async () => {
      checkReadable(file)
      checkWritable(to)
      await this.validate(fields, file)
      const current = await this.current(file)
      expectVersion(file, current, expectedVersion)
      const library = await loadYaml()
      const text = serializeMemory(fields, current!.record.extra, library)
      const staged = join(this.dir, `.${to}.${process.pid}.rename`)
      await writeFileAtomic(staged, text)
      try {
        await link(staged, join(this.dir, to))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new AppError('CONFLICT', `A memory file named ${to} already exists.`)
        throw error
      } finally {
        await unlink(staged).catch(ignoreMissing)
      }
      if (to !== file) await unlink(join(this.dir, file)).catch(ignoreMissing)
      await this.syncIndexNow()
      const record = await this.load(to)
      if (!record) throw new AppError('UNAVAILABLE', `${to} was written but cannot be read back.`)
      return { record, previous: current!.text }
    })
  }

  /** Refuses fields that may not be saved (INVALID_INPUT); names are unique within the folder. */
  private async validate(fields: MemoryFields, file: string): Promise<void> {
    const others = (await this.list()).filter((record) => record.file !== file).map((record) => record.fields.name)
    const problems = memoryProblems(fields, others)
    if (problems.length > 0) throw new AppError('INVALID_INPUT', problems.map((problem) => problem.message).join(' '))
  }

  /** The index as it is on disk (`''` when missing). */
  async indexText(): Promise<string> {
    return readFile(join(this.dir, INDEX_FILE), 'utf8').catch(() => '')
  }

  /**
   * Rewrites `MEMORY.md` when it no longer matches the files (after another tool wrote one, or a
   * person edited it). Lines that belong to no memory are first saved in {@link KEPT_NOTES_FILE}.
   * Returns whether anything was written. A folder that does not exist stays absent. Pass the
   * records just listed to spare a second listing.
   */
  syncIndex(listed?: MemoryRecord[]): Promise<boolean> {
    return this.serial(() => this.syncIndexNow(listed))
  }

  /** `listed`: the records the caller just listed (saves listing the folder again). */
  private async syncIndexNow(listed?: MemoryRecord[]): Promise<boolean> {
    let records = listed ?? (await this.list())
    const onDisk = await this.indexText()
    if (records.length === 0 && onDisk === '') return false
    const kept = foreignLines(onDisk)
    if (kept.length > 0) {
      await this.keepNotes(kept)
      records = await this.list()
    }
    const index = renderIndex(records.map(indexEntry))
    if (index.text === onDisk) return false
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    await writeFileAtomic(join(this.dir, INDEX_FILE), index.text)
    return true
  }

  /** Appends lines another writer left in `MEMORY.md` to the kept-notes memory. */
  private async keepNotes(lines: string[]): Promise<void> {
    const library = await loadYaml()
    const existing = await this.current(KEPT_NOTES_FILE)
    const day = new Date().toISOString().slice(0, 10)
    const added = `Kept on ${day}:\n\n${lines.join('\n')}`
    const fields: MemoryFields = existing
      ? { ...existing.record.fields, body: `${existing.record.fields.body}\n\n${added}` }
      : {
          name: 'Notes kept from MEMORY.md',
          description: 'Lines a person or another tool wrote into MEMORY.md, kept when Sous regenerated the index',
          type: 'reference',
          body: added,
        }
    await writeFileAtomic(join(this.dir, KEPT_NOTES_FILE), serializeMemory(fields, existing?.record.extra ?? {}, library))
  }

  /** The file's current text and record, read fresh (for version checks). */
  private async current(file: string): Promise<{ text: string; record: MemoryRecord } | undefined> {
    const path = join(this.dir, file)
    const info = await lstat(path).catch(() => undefined)
    if (!info) return undefined
    if (info.isSymbolicLink()) throw new AppError('FORBIDDEN', `${file} is a symbolic link; Sous does not write through links in a memory folder.`)
    const text = await readFile(path, 'utf8')
    return { text, record: await recordOf(file, path, text, info.mtimeMs) }
  }

  /** Reads and parses one file, reusing the parse while its size and time are unchanged. */
  private async load(file: string): Promise<MemoryRecord | undefined> {
    const path = join(this.dir, file)
    const info = await lstat(path).catch(() => undefined)
    if (!info) {
      this.cache.delete(file)
      return undefined
    }
    const stamp = `${info.mtimeMs}:${info.size}:${info.ino}`
    const cached = this.cache.get(file)
    if (cached?.stamp === stamp) return cached.record
    let record: MemoryRecord
    if (info.isSymbolicLink()) record = problemRecord(file, path, info.mtimeMs, 'The file is a symbolic link; Sous does not follow links in a memory folder.')
    else if (!info.isFile()) return undefined
    else if (info.size > MAX_FILE_BYTES) record = problemRecord(file, path, info.mtimeMs, `The file is larger than ${MAX_FILE_BYTES / 1024} KB.`)
    else {
      const text = await readFile(path, 'utf8').catch(() => undefined)
      if (text === undefined) return undefined
      record = await recordOf(file, path, text, info.mtimeMs)
    }
    this.cache.set(file, { stamp, record })
    return record
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }
}

/** The version of a text: what a writer names to replace it. */
export function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/** The index line of a record. */
export function indexEntry(record: MemoryRecord): IndexEntry {
  const structural = record.problems[0]
  return {
    file: record.file,
    name: record.fields.name,
    description: record.fields.description,
    updatedAt: record.updatedAt,
    ...(structural ? { problem: structural.message } : { type: record.fields.type as MemoryType }),
  }
}

async function recordOf(file: string, path: string, text: string, updatedAt: number): Promise<MemoryRecord> {
  const parsed = parseMemory(text, undefined) ?? parseMemory(text, await loadYaml())
  return { file, path, fields: parsed.fields, extra: parsed.extra, problems: parsed.problems, updatedAt, version: versionOf(text) }
}

function problemRecord(file: string, path: string, updatedAt: number, message: string): MemoryRecord {
  return { file, path, fields: { name: '', description: '', type: '', body: '' }, extra: {}, problems: [{ field: 'file', message }], updatedAt, version: '' }
}

/** Marks every memory whose name an earlier one (by file name) already has. */
function flagDuplicates(records: MemoryRecord[]): MemoryRecord[] {
  const seen = new Map<string, string>()
  return records.map((record) => {
    const key = record.fields.name.trim().toLowerCase()
    if (key === '') return record
    const first = seen.get(key)
    if (first === undefined) {
      seen.set(key, record.file)
      return record
    }
    return { ...record, duplicateOf: first }
  })
}

function expectVersion(file: string, current: { record: MemoryRecord } | undefined, expected: string | null): void {
  if (expected === null) {
    if (current) throw new AppError('CONFLICT', `A memory file named ${file} already exists.`)
    return
  }
  if (!current) throw new AppError('CONFLICT', `${file} was deleted on disk since it was opened.`)
  if (current.record.version !== expected) throw new AppError('CONFLICT', `${file} changed on disk since it was opened; reload it to see the change.`)
}

function checkReadable(file: string): void {
  if (!/^[^/\\]+\.md$/i.test(file) || file === '..' || file.toUpperCase() === INDEX_FILE) throw new AppError('INVALID_INPUT', `Not a memory file name: ${file}`)
}

function checkWritable(file: string): void {
  if (!isWritableMemoryFile(file)) throw new AppError('INVALID_INPUT', `Sous writes memory files named like feedback_use_pnpm.md, not ${JSON.stringify(file)}.`)
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
}

