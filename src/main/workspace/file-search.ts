import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/ipc/result'
import { GitignoreMatcher } from '../base/gitignore'
import { insideProject } from './files'
import { rankPaths } from './path-match'
import { listWithRipgrep } from './ripgrep-list'

/** Bounds of one walk of a project: a huge tree answers with what was seen, never stalls. */
export interface WalkLimits {
  /** Files and folders collected at most. */
  maxEntries: number
  /** Milliseconds the walk may take. */
  timeMs: number
}

const DEFAULT_LIMITS: WalkLimits = { maxEntries: 20_000, timeMs: 2_000 }
/** A walk is reused this long, so typing `@src/ma` does not walk the tree on every key. */
const CACHE_MS = 5_000

/**
 * Every file and folder of the project (relative, `/`-separated, folders ending with `/`),
 * breadth first so shallow paths survive the bounds; `.git` and what the `.gitignore` files
 * ignore are left out (the same rules as `files.list`). Links out of the project are left out;
 * symlinked folders inside it are listed but not entered, so the walk cannot go round in a cycle.
 */
export async function walkProject(root: string, limits: WalkLimits = DEFAULT_LIMITS): Promise<string[]> {
  const deadline = Date.now() + limits.timeMs
  const found: string[] = []
  const gitignore = new GitignoreMatcher(root)
  const queue: string[] = ['']
  while (queue.length > 0 && found.length < limits.maxEntries && Date.now() < deadline) {
    const dir = queue.shift()!
    const dirents = await readdir(join(root, dir), { withFileTypes: true }).catch(() => [])
    dirents.sort((a, b) => a.name.localeCompare(b.name))
    for (const dirent of dirents) {
      if (dirent.name === '.git') continue
      const path = dir ? `${dir}/${dirent.name}` : dirent.name
      let isDir = dirent.isDirectory()
      if (dirent.isSymbolicLink()) {
        // A link out of the project is not offered at all; one inside is offered, not entered.
        const target = await insideProject(root, path).catch(() => undefined)
        if (target === undefined) continue
        isDir = (await stat(target).catch(() => undefined))?.isDirectory() ?? false
      }
      if (await gitignore.ignores(path, isDir)) continue
      found.push(isDir ? `${path}/` : path)
      if (isDir && !dirent.isSymbolicLink()) queue.push(path)
      if (found.length >= limits.maxEntries) break
    }
  }
  return found
}

/** Refuses a query that names a place outside the project (absolute, or through `..`). */
function checkQuery(query: string): void {
  if (/^([\\/]|[a-zA-Z]:)/.test(query) || query.split(/[\\/]/).includes('..'))
    throw new AppError('INVALID_INPUT', `Expected a path inside the project: ${query}`)
}

/** Searches projects' files for `@` completion, keeping each project's walk for a few seconds. */
export class FileSearch {
  private readonly walks = new Map<string, { at: number; paths: Promise<string[]> }>()

  constructor(
    private readonly limits: WalkLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The best `limit` files and folders of the (canonical) project `root` for `query`. */
  async search(root: string, query: string, limit: number): Promise<string[]> {
    checkQuery(query)
    return rankPaths(await this.paths(root), query, limit)
  }

  private paths(root: string): Promise<string[]> {
    const cached = this.walks.get(root)
    if (cached && this.now() - cached.at < CACHE_MS) return cached.paths
    for (const [key, walk] of this.walks) if (this.now() - walk.at >= CACHE_MS) this.walks.delete(key)
    // The bundled ripgrep lists a large tree in a fraction of the walk's time; the walk answers
    // when ripgrep cannot run.
    const paths = listWithRipgrep(root, this.limits).then((listed) => listed ?? walkProject(root, this.limits))
    this.walks.set(root, { at: this.now(), paths })
    return paths
  }
}
