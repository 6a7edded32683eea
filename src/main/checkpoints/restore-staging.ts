import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { processAlive } from '../base/process-alive'

/** How the staging folders of restores are named in the project root. */
const PREFIX = '.sous-restore-'

/** A staging folder without a process id in its name (an older Sous's) is stale after this long. */
const UNNAMED_STALE_MS = 60 * 60 * 1000

/**
 * Makes the staging folder of one restore in the project root, `.sous-restore-<pid>-XXXXXX`: on
 * the project's file system, so that every staged file moves into place with a rename. The
 * process id in its name says whose it is, so a folder a crashed restore left behind is known
 * for one (see {@link removeStaleStaging}).
 */
export async function makeStaging(root: string): Promise<string> {
  await removeStaleStaging(root)
  return mkdtemp(join(root, `${PREFIX}${process.pid}-`))
}

/**
 * Removes the staging folders of restores that cannot be running any more: their process is gone
 * (Sous crashed, or the machine lost power, part way through a restore), or, for a folder named
 * without a process id, it is over an hour old. A restore running in another Sous process keeps
 * its folder. Contract: never rejects; what cannot be removed stays.
 */
export async function removeStaleStaging(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[])
  await Promise.all(
    names
      .filter((name) => name.startsWith(PREFIX))
      .map(async (name) => {
        const path = join(root, name)
        const stat = await lstat(path).catch(() => undefined)
        if (!stat?.isDirectory()) return
        const pid = /^(\d+)-/.exec(name.slice(PREFIX.length))?.[1]
        const stale = pid === undefined ? Date.now() - stat.mtimeMs > UNNAMED_STALE_MS : !processAlive(Number(pid))
        if (stale) await rm(path, { recursive: true, force: true }).catch(() => undefined)
      }),
  )
}
