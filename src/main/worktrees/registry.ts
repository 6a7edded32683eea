import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WorktreeInfo } from '../../shared/ipc/worktree-info'
import { writeFileAtomic } from '../base/atomic-write'
import { projectDataDir } from '../base/paths'

/** `$SOUS_HOME/projects/<slug of the main checkout>/worktrees.json`. */
export function registryPath(home: string, repoRoot: string): string {
  return join(projectDataDir(home, repoRoot), 'worktrees.json')
}

/**
 * The worktrees Sous made for one repository and whose they are: the session record's half of
 * "a resumed session reopens in its worktree" (the transcript's project path is the other), and
 * what tells a worktree whose session is gone. One JSON file per repository, written whole and
 * atomically; changes in this process are queued so none is lost. A damaged file reads as empty
 * for listing, but is never overwritten by a write (the write fails instead), so a bad read
 * cannot forget every worktree.
 */
export class WorktreeRegistry {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly home: string) {}

  /** Every record of the repository (empty when there is no file yet or it cannot be read). */
  async list(repoRoot: string): Promise<WorktreeInfo[]> {
    const read = await this.read(repoRoot)
    return read.ok ? read.worktrees : []
  }

  /** Adds or replaces (by path) one record. */
  put(info: WorktreeInfo): Promise<void> {
    return this.change(info.repoRoot, (all) => [...all.filter((item) => item.path !== info.path), info])
  }

  /** Forgets the record of a worktree that was removed. */
  forget(repoRoot: string, path: string): Promise<void> {
    return this.change(repoRoot, (all) => all.filter((item) => item.path !== path))
  }

  private change(repoRoot: string, edit: (all: WorktreeInfo[]) => WorktreeInfo[]): Promise<void> {
    const next = this.queue.then(async () => {
      const read = await this.read(repoRoot)
      if (!read.ok) throw new Error(`${registryPath(this.home, repoRoot)} cannot be read (${read.error}); it is left as it is. Move it aside to start a new one.`)
      const worktrees = edit(read.worktrees)
      await writeFileAtomic(registryPath(this.home, repoRoot), `${JSON.stringify({ version: 1, worktrees }, null, 2)}\n`)
    })
    this.queue = next.catch(() => undefined)
    return next
  }

  private async read(repoRoot: string): Promise<{ ok: true; worktrees: WorktreeInfo[] } | { ok: false; error: string }> {
    let text: string
    try {
      text = await readFile(registryPath(this.home, repoRoot), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, worktrees: [] }
      return { ok: false, error: (error as Error).message }
    }
    try {
      const data = JSON.parse(text) as { worktrees?: unknown }
      const parsed = WorktreeInfo.array().safeParse(data.worktrees)
      return parsed.success ? { ok: true, worktrees: parsed.data } : { ok: false, error: 'its records are not in the expected shape' }
    } catch (error) {
      return { ok: false, error: (error as Error).message }
    }
  }
}
