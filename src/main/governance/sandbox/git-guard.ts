import { existsSync, lstatSync, rmSync, watch, type FSWatcher } from 'node:fs'
import { dirname, join } from 'node:path'
import { gitLayout } from '../paths/git-layout'
import { gitFolders, GUARDED } from './git-denies'

/**
 * Watches the repository's git folders while sandboxed commands run and removes a `commondir` or
 * an `alternates` file the moment one appears (and again when the command ends, in case an event
 * was missed), so the user's next `git` outside the sandbox is never sent to a folder of the
 * command's choosing. A bind mount cannot protect them while they are absent (see `GUARDED`), and
 * git never writes them in a repository's own folder, so one that appears came from the command.
 * Each removal is reported as a sandbox violation of the command that was running.
 */
export class GitControlGuard {
  private running = 0
  private watchers: FSWatcher[] = []
  private absent: string[] = []
  private reports: string[] = []

  constructor(private readonly root: string) {}

  /** A sandboxed command starts. */
  begin(): void {
    if (this.running++ > 0) return
    const layout = gitLayout(this.root)
    const folders = new Set<string>()
    for (const dir of gitFolders(layout)) {
      for (const path of GUARDED.map((name) => join(dir, name))) {
        if (exists(path)) continue
        this.absent.push(path)
        folders.add(dirname(path))
      }
    }
    for (const folder of folders) {
      try {
        this.watchers.push(watch(folder, { persistent: false }, () => this.sweep()))
      } catch {
        // Missing or unwatchable (a network file system): the sweep when the command ends still runs.
      }
    }
  }

  /** A sandboxed command ended: a last sweep, and the watch stops when none is left. */
  end(): void {
    this.sweep()
    if (this.running === 0 || --this.running > 0) return
    for (const watcher of this.watchers) watcher.close()
    this.watchers = []
    this.absent = []
  }

  /** Violation lines not reported yet (for the command being annotated). */
  takeReports(): string[] {
    const reports = this.reports
    this.reports = []
    return reports
  }

  private sweep(): void {
    for (const path of this.absent) {
      if (!exists(path)) continue
      try {
        rmSync(path, { recursive: true, force: true })
        this.reports.push(`deny write ${path} (removed: it would send git outside the sandbox to another folder)`)
      } catch (error) {
        this.reports.push(`deny write ${path} (could not be removed: ${(error as Error).message}; delete it before running git)`)
      }
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return existsSync(path)
  }
}
