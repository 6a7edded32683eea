import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'

/** What a {@link walkTree} looks at, how far it goes and what it leaves out. */
export interface TreeWalk {
  /**
   * Each entry the walk does not go into (files, links, directories it prunes), with the depth of
   * the directory holding it (the root's own entries are at depth 0).
   */
  visit(path: string, entry: Dirent, depth: number): void
  /** Whether to go into a directory (its entry, at the depth of the directory holding it); default every one. Links are never followed. */
  descend?(entry: Dirent, depth: number): boolean
  /** Directories deeper than this are not read (the root is at depth 0). */
  maxDepth?: number
  /** At most this many directories are read; those after are skipped. */
  maxDirectories?: number
  /** The walk ends after this many entries. */
  maxEntries?: number
  /** Asked before each entry: true ends the walk (what was sought is found). */
  done?(): boolean
}

/**
 * Walks the tree below `root` without following links, within the walk's bounds, and calls
 * `visit` for what it does not descend into. Unreadable directories are passed over. The one
 * bounded walk of the process's own searches (the sandbox's nested CLAUDE.md files, the gate's
 * search for a denied file's hard links), each with its own pruning.
 */
export function walkTree(root: string, walk: TreeWalk): void {
  const { maxDepth = Infinity, maxDirectories = Infinity, maxEntries = Infinity } = walk
  let directories = 0
  let entries = 0
  let ended = false
  const read = (dir: string, depth: number): void => {
    if (depth > maxDepth || directories >= maxDirectories) return
    directories++
    let listed: Dirent[]
    try {
      listed = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of listed) {
      if (ended || ++entries > maxEntries || walk.done?.()) {
        ended = true
        return
      }
      const path = join(dir, entry.name)
      if (entry.isDirectory() && (walk.descend?.(entry, depth) ?? true)) read(path, depth + 1)
      else walk.visit(path, entry, depth)
    }
  }
  read(root, 0)
}
