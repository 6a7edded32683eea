import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WorktreeInfo } from '../../shared/ipc/worktree-info'
import { writeFileAtomic } from '../base/atomic-write'
import { projectDataDir } from '../base/paths'
import { withFileLock, type FileLockPolicy } from '../store/teams/file-lock'

/** `$SOUS_HOME/projects/<slug of the main checkout>/worktrees.json`. */
export function registryPath(home: string, repoRoot: string): string {
  return join(projectDataDir(home, repoRoot), 'worktrees.json')
}

/**
 * Several Sous processes (the app, `sous -p` runs, `sous serve`) may make worktrees of one
 * repository at once; each change holds the lock a few milliseconds, so seconds of retries cover
 * a burst of creations.
 */
const REGISTRY_LOCK_POLICY: FileLockPolicy = { retries: 100, minDelayMs: 5, maxDelayMs: 50 }

/** A claim lost a race: another session took the worktree since the caller looked. */
export class WorktreeTakenError extends Error {
  constructor(readonly path: string, readonly holder: string) {
    super(`The worktree at ${path} was just taken by session ${holder}: two sessions never share a worktree. Choose another one.`)
  }
}

/**
 * The worktrees Sous made for one repository and whose they are: the session record's half of
 * "a resumed session reopens in its worktree" (the transcript's project path is the other), and
 * what tells a worktree whose session is gone. One JSON file per repository, written whole and
 * atomically. Every change reads, edits and writes it holding a cross-process lock
 * (`proper-lockfile`, `worktrees.json.lock`; queued per file within a process), so two processes
 * making worktrees at once never lose each other's records, and {@link claim} is a
 * compare-and-set: two sessions never both get one worktree. A damaged file reads as empty for
 * listing, but is never overwritten by a write (the write fails instead), so a bad read cannot
 * forget every worktree.
 */
export class WorktreeRegistry {
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

  /**
   * Gives the worktree `info` describes to `sessionId`, provided its holder is still `expected`
   * (the session the caller saw holding it, undefined for none): otherwise rejects with
   * {@link WorktreeTakenError} and changes nothing. Checked and written under the lock, so of two
   * sessions claiming one worktree at once exactly one gets it.
   */
  claim(info: WorktreeInfo, sessionId: string, expected: string | undefined): Promise<WorktreeInfo> {
    const claimed = { ...info, sessionId }
    return this.change(info.repoRoot, (all) => {
      const holder = all.find((item) => item.path === info.path)?.sessionId
      if (holder !== undefined && holder !== expected && holder !== sessionId) throw new WorktreeTakenError(info.path, holder)
      return [...all.filter((item) => item.path !== info.path), claimed]
    }).then(() => claimed)
  }

  /** Forgets the record of a worktree that was removed. */
  forget(repoRoot: string, path: string): Promise<void> {
    return this.change(repoRoot, (all) => all.filter((item) => item.path !== path))
  }

  /** Read, edit, write, holding the file's lock; `edit` may throw to change nothing. */
  private change(repoRoot: string, edit: (all: WorktreeInfo[]) => WorktreeInfo[]): Promise<void> {
    const file = registryPath(this.home, repoRoot)
    return withFileLock(
      file,
      async () => {
        const read = await this.read(repoRoot)
        if (!read.ok) throw new Error(`${file} cannot be read (${read.error}); it is left as it is. Move it aside to start a new one.`)
        const worktrees = edit(read.worktrees)
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, worktrees }, null, 2)}\n`)
      },
      REGISTRY_LOCK_POLICY,
    )
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
