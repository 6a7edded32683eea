import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../base/atomic-write'

/** One session of a stored run: where its worktree is, its branch and model. */
export const StoredSession = z.object({ sessionId: z.string(), name: z.string(), branch: z.string(), worktree: z.string(), model: z.string() })
export type StoredSession = z.infer<typeof StoredSession>

/** A run as stored: the prompt, the project, its sessions. */
export const StoredRun = z.object({ runId: z.string(), projectPath: z.string(), prompt: z.string(), createdAt: z.string(), sessions: z.array(StoredSession) })
export type StoredRun = z.infer<typeof StoredRun>

/**
 * Runs on disk, one JSON file each under `$SOUS_HOME/parallel/runs/` (Sous's own folder, never the
 * repository: where a worktree is comes only from here). A file that does not parse is skipped,
 * never trusted.
 */
export class RunStore {
  private readonly folder: string

  constructor(home: string) {
    this.folder = join(home, 'parallel', 'runs')
  }

  async save(run: StoredRun): Promise<void> {
    await writeFileAtomic(join(this.folder, `${run.runId}.json`), `${JSON.stringify(run, null, 2)}\n`)
  }

  async get(runId: string): Promise<StoredRun | undefined> {
    if (!/^run_[0-9a-f]{8,32}$/.test(runId)) return undefined
    const text = await readFile(join(this.folder, `${runId}.json`), 'utf8').catch(() => undefined)
    if (text === undefined) return undefined
    try {
      const parsed = StoredRun.safeParse(JSON.parse(text))
      return parsed.success && parsed.data.runId === runId ? parsed.data : undefined
    } catch {
      return undefined
    }
  }

  /** The runs of a project, newest first. */
  async list(projectPath: string): Promise<StoredRun[]> {
    const names = await readdir(this.folder).catch(() => [] as string[])
    const runs = await Promise.all(names.filter((name) => name.endsWith('.json')).map((name) => this.get(name.slice(0, -5))))
    return runs.filter((run): run is StoredRun => run?.projectPath === projectPath).sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }
}
