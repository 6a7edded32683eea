import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'

/** What a Read saw of a file. */
export interface FileSnapshot {
  mtimeMs: number
  size: number
  /** sha1 of the bytes, so a touch without a change does not count as a change. */
  hash: string
}

/** The message the model gets when a file changed behind its back. */
export const MODIFIED_SINCE_READ =
  'File has been modified since read, either by the user or by a linter. Read it again before editing.'
export const NOT_READ_YET = 'File has not been read yet. Read it first before writing to it.'

/** Hash of file bytes. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex')
}

/**
 * Per-session record of the files the agent has read, so Edit and Write change only what the
 * model has actually seen, as it is now. Kept in the order the files were last seen, so compaction
 * can re-read the most recent ones; listeners learn of every file the agent touches.
 */
export class FileStateCache {
  private readonly files = new Map<string, FileSnapshot>()
  private readonly listeners = new Set<(path: string) => void>()

  /** Records what a Read (or a successful Edit/Write) saw. */
  record(filePath: string, bytes: Uint8Array, mtimeMs: number): void {
    const path = resolve(filePath)
    const known = this.files.has(path)
    // Delete first, so the map's order stays "least recently seen first".
    this.files.delete(path)
    this.files.set(path, { mtimeMs, size: bytes.byteLength, hash: hashBytes(bytes) })
    if (known) return
    for (const listener of this.listeners) {
      try {
        listener(path)
      } catch {
        // A listener's failure must not fail the tool that read the file.
      }
    }
  }

  /** Paths seen, most recent first (at most `limit`). */
  recent(limit = Infinity): string[] {
    const paths = [...this.files.keys()].reverse()
    return paths.slice(0, limit)
  }

  /** Calls `listener` with each file the agent touches for the first time (read, edited or written). */
  onFirstTouch(listener: (path: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get(filePath: string): FileSnapshot | undefined {
    return this.files.get(resolve(filePath))
  }

  forget(filePath: string): void {
    this.files.delete(resolve(filePath))
  }

  /** A copy that goes its own way (a subagent starts knowing what its parent read). */
  clone(): FileStateCache {
    const copy = new FileStateCache()
    for (const [path, snapshot] of this.files) copy.files.set(path, snapshot)
    return copy
  }

  /**
   * Whether the file may be changed now. A file that does not exist may always be created.
   * Returns an instructive message when not.
   */
  async checkWritable(filePath: string): Promise<string | undefined> {
    let info
    try {
      info = await stat(filePath)
    } catch {
      return undefined // a new file
    }
    const seen = this.get(filePath)
    if (!seen) return NOT_READ_YET
    if (info.mtimeMs === seen.mtimeMs && info.size === seen.size) return undefined
    if (info.size === seen.size) {
      // mtime moved but the bytes may be the same (touch, a formatter that changed nothing).
      const bytes = await readFile(filePath)
      if (hashBytes(bytes) === seen.hash) return undefined
    }
    return MODIFIED_SINCE_READ
  }
}
