import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import type { ScheduledJob } from './job'

/**
 * Durable scheduled prompts: `.claude/scheduled_tasks.json` in the project, where Claude Code keeps
 * them (`{"tasks": [...]}`). A file that does not read as one is reported and left alone (fail
 * closed: nothing from it fires, and nothing overwrites it until the user mends or removes it).
 */

/** Where a project's durable jobs live. */
export function durableFile(projectPath: string): string {
  return join(projectPath, '.claude', 'scheduled_tasks.json')
}

/** The durable jobs of a project, or why the file cannot be read. */
export async function readDurable(projectPath: string): Promise<{ jobs: ScheduledJob[]; problem?: string }> {
  let text: string
  try {
    text = await readFile(durableFile(projectPath), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { jobs: [] }
    return { jobs: [], problem: `${durableFile(projectPath)} could not be read: ${(error as Error).message}` }
  }
  try {
    const data = JSON.parse(text) as { tasks?: unknown }
    if (!Array.isArray(data.tasks)) throw new Error('no "tasks" array')
    const jobs = data.tasks.map((task: Record<string, unknown>, index) => {
      if (typeof task['id'] !== 'string' || typeof task['cron'] !== 'string' || typeof task['prompt'] !== 'string' || typeof task['createdAt'] !== 'number') throw new Error(`task ${index + 1} lacks id, cron, prompt or createdAt`)
      return {
        id: task['id'],
        cron: task['cron'],
        prompt: task['prompt'],
        createdAt: task['createdAt'],
        recurring: task['recurring'] !== false,
        durable: true,
        ...(typeof task['lastFiredAt'] === 'number' && { lastFiredAt: task['lastFiredAt'] }),
      } satisfies ScheduledJob
    })
    return { jobs }
  } catch (error) {
    return { jobs: [], problem: `${durableFile(projectPath)} is damaged (${(error as Error).message}); its jobs do not run until it is fixed.` }
  }
}

/** Writes a project's durable jobs (atomically: a reader never sees half a file). */
export async function writeDurable(projectPath: string, jobs: readonly ScheduledJob[]): Promise<void> {
  const file = durableFile(projectPath)
  await mkdir(dirname(file), { recursive: true })
  const tasks = jobs.map(({ id, cron, prompt, createdAt, recurring, lastFiredAt }) => ({ id, cron, prompt, createdAt, recurring, ...(lastFiredAt !== undefined && { lastFiredAt }) }))
  await writeFileAtomic(file, `${JSON.stringify({ tasks }, null, 2)}\n`, 0o644)
}
