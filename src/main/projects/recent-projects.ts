import { readFile, rename } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { Project } from '../../shared/ipc/contract'
import { writeFileAtomic } from '../base/atomic-write'

/** How many projects the list keeps. */
export const MAX_RECENT = 20

const RecentFile = z.object({ version: z.literal(1), projects: z.array(Project) })

/** Options for {@link RecentProjects}. */
export interface RecentProjectsOptions {
  /** Told when the file on disk cannot be read; the list is then treated as empty. */
  onWarning?: (message: string) => void
  /** For tests: the clock. */
  now?: () => Date
  max?: number
}

/**
 * The recently opened projects, newest first, in `$SOUS_HOME/recent-projects.json`.
 *
 * Contract: never throws for a missing or corrupt file — a corrupt file is reported through
 * `onWarning`, moved aside to `recent-projects.json.corrupt` (so nothing is lost) and treated as
 * empty. Writes are atomic and serialized within the process.
 */
export class RecentProjects {
  readonly file: string
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    sousHome: string,
    private readonly options: RecentProjectsOptions = {},
  ) {
    this.file = join(sousHome, 'recent-projects.json')
  }

  /** The list, newest first. */
  list(): Promise<Project[]> {
    return this.serialize(() => this.read())
  }

  /** Moves (or adds) `path` to the front and returns its entry. `path` must already be resolved. */
  add(path: string): Promise<Project> {
    return this.serialize(async () => {
      const project: Project = { path, name: basename(path) || path, openedAt: (this.options.now?.() ?? new Date()).toISOString() }
      const rest = (await this.read()).filter((entry) => entry.path !== path)
      const projects = [project, ...rest].slice(0, this.options.max ?? MAX_RECENT)
      await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`)
      return project
    })
  }

  private async read(): Promise<Project[]> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      this.options.onWarning?.(`Cannot read ${this.file}: ${(error as Error).message}`)
      return []
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return this.corrupt('not valid JSON')
    }
    const checked = RecentFile.safeParse(parsed)
    if (!checked.success) return this.corrupt('unexpected shape')
    return checked.data.projects
  }

  private async corrupt(why: string): Promise<Project[]> {
    const aside = `${this.file}.corrupt`
    try {
      await rename(this.file, aside)
      this.options.onWarning?.(`${this.file} is corrupt (${why}); moved it to ${aside} and started an empty list.`)
    } catch (error) {
      this.options.onWarning?.(`${this.file} is corrupt (${why}) and could not be moved aside: ${(error as Error).message}`)
    }
    return []
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task)
    this.queue = next.catch(() => undefined)
    return next
  }
}
