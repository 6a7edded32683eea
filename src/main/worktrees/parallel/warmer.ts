/**
 * How long after a run's worktree moved (a session's turn ended, a commit or an update from the
 * base) its run is read ahead, unless something read it meanwhile: sessions of a run often finish
 * together, and a compare view on screen reads the run itself at once (`parallel.changed`).
 */
export const WARM_AFTER_MS = 1000

/**
 * Reads a run ahead after its worktrees moved, so the compare view's next first open finds the
 * read cache ready (the new fork point's files, the merge base of a new commit, the hunk counts of
 * changed files) — only what cannot go stale is kept (`merge/read-cache.ts`): the working trees
 * are listed and read again at the open itself. A read by anyone after the move makes this one
 * needless, and it is skipped.
 */
export class RunWarmer {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly lastRead = new Map<string, number>()

  constructor(private readonly read: (runId: string) => Promise<unknown>) {}

  /** Someone starts reading `runId` now. */
  reading(runId: string): void {
    this.lastRead.set(runId, performance.now())
  }

  /** `runId`'s worktrees moved: read it in a moment unless someone does first. */
  moved(runId: string): void {
    const at = performance.now()
    clearTimeout(this.timers.get(runId))
    const timer = setTimeout(() => {
      this.timers.delete(runId)
      if ((this.lastRead.get(runId) ?? -1) >= at) return
      this.read(runId).catch(() => undefined)
    }, WARM_AFTER_MS)
    timer.unref?.()
    this.timers.set(runId, timer)
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }
}
