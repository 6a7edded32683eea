import type { PtyService } from '../../pty/types'
import { CommandRun } from './command-run'
import type { CommandEnd, CommandOptions } from './command-run'
import { cleanTerminalText, cutMiddle } from './output'
import { SpillFile } from './spill-file'

/** Unread output kept per background shell at most; older unread output is dropped and counted. */
const MAX_UNREAD_CHARS = 1_000_000

export type BackgroundStatus = 'running' | 'completed' | 'failed' | 'killed'

/** What a background command is, besides its run: the call that started it and where its output goes. */
export interface BackgroundShellInfo {
  /** The Bash call's `description`. */
  description?: string
  /** The Bash call that started it. */
  toolUseId?: string
  /**
   * A file that gets everything the command prints, made at once (so a Read right after the
   * launch finds it), cleaned of terminal codes when the command ends (Claude Code's output file).
   */
  outputFile?: string
}

/** One command started with run_in_background. */
export class BackgroundShell {
  private unread: string[] = []
  private unreadLength = 0
  private droppedUnread = 0
  private end: CommandEnd | undefined
  private endSeen = false
  readonly startedAt = Date.now()
  readonly description: string | undefined
  readonly toolUseId: string | undefined
  /** The output file, when it could be made. */
  readonly outputFile: string | undefined
  /** Resolves once the command ended and its output file is complete. */
  readonly settled: Promise<void>

  constructor(
    readonly id: string,
    readonly command: string,
    readonly run: CommandRun,
    info: BackgroundShellInfo = {},
  ) {
    this.description = info.description
    this.toolUseId = info.toolUseId
    const file = info.outputFile ? new SpillFile(info.outputFile, 0) : undefined
    this.outputFile = file?.openNow() ? info.outputFile : undefined
    run.onOutput((raw) => {
      this.push(raw)
      file?.push(raw)
    })
    this.settled = run.done.then(async (end) => {
      this.end = end
      await file?.finish()
    })
  }

  get status(): BackgroundStatus {
    if (!this.end) return 'running'
    if (this.end.killed || this.end.aborted || this.end.timedOut) return 'killed'
    return this.end.exitCode === 0 ? 'completed' : 'failed'
  }

  get exitCode(): number | null | undefined {
    return this.end?.exitCode
  }

  /** Whether the model has learned how this shell ended (TaskOutput showed it, or TaskStop ended it). */
  get endReported(): boolean {
    return this.endSeen
  }

  /** Records that the model was told this shell's end, so no notification repeats it. */
  reportEnd(): void {
    if (this.status !== 'running') this.endSeen = true
  }

  /** New output since the last call, clean, middle cut when long. */
  takeOutput(): string {
    const raw = this.unread.join('')
    const dropped = this.droppedUnread
    this.unread = []
    this.unreadLength = 0
    this.droppedUnread = 0
    const clean = cleanTerminalText(raw)
    const body = cutMiddle(clean)
    return dropped > 0 ? `[${dropped.toLocaleString('en-US')} earlier characters were not kept]\n${body}` : body
  }

  private push(raw: string): void {
    this.unread.push(raw)
    this.unreadLength += raw.length
    if (this.unreadLength > 2 * MAX_UNREAD_CHARS) {
      const joined = this.unread.join('')
      const excess = joined.length - MAX_UNREAD_CHARS
      this.droppedUnread += excess
      this.unread = [joined.slice(excess)]
      this.unreadLength = MAX_UNREAD_CHARS
    }
  }
}

/**
 * The background shells of one session. **Contract:** `dispose()` stops every one of them and
 * resolves once they have ended; nothing outlives the session.
 */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>()
  private readonly watchers = new Set<(shell: BackgroundShell) => void>()
  private readonly finishListeners = new Set<(shell: BackgroundShell) => void>()
  private nextId = 1
  private disposing = false

  /** Starts a command; `info.outputFile` names its output file from its id. */
  start(pty: PtyService, options: Omit<CommandOptions, 'signal'>, info: Omit<BackgroundShellInfo, 'outputFile'> & { outputFile?: (id: string) => string } = {}): BackgroundShell {
    const id = `bash_${this.nextId++}`
    const { outputFile, ...rest } = info
    const shell = new BackgroundShell(id, options.command, new CommandRun(pty, options), { ...rest, ...(outputFile && { outputFile: outputFile(id) }) })
    this.shells.set(id, shell)
    this.tell(shell)
    void shell.settled.then(() => {
      this.tell(shell)
      // The session ending stops its shells; nobody is left to tell.
      if (this.disposing) return
      for (const listener of this.finishListeners) listener(shell)
    })
    return shell
  }

  /** Calls `listener` when a shell ends (not when the session's end stops it). Returns the unsubscribe function. */
  onFinish(listener: (shell: BackgroundShell) => void): () => void {
    this.finishListeners.add(listener)
    return () => this.finishListeners.delete(listener)
  }

  /**
   * Calls `watcher` when a shell starts and again when it ends, however it ends (its `status`
   * says which). Returns the function that stops watching. A watcher that throws is ignored.
   */
  watch(watcher: (shell: BackgroundShell) => void): () => void {
    this.watchers.add(watcher)
    return () => this.watchers.delete(watcher)
  }

  private tell(shell: BackgroundShell): void {
    for (const watcher of this.watchers) {
      try {
        watcher(shell)
      } catch {
        // A watcher (the tree's feed) must never break a command.
      }
    }
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id)
  }

  list(): BackgroundShell[] {
    return [...this.shells.values()]
  }

  /** Stops one shell and waits for its end; false if unknown. */
  async stop(id: string): Promise<boolean> {
    const shell = this.shells.get(id)
    if (!shell) return false
    shell.run.stop('kill')
    // Its end is told (and its output file finished) before the stop returns.
    await shell.settled
    return true
  }

  async dispose(): Promise<void> {
    this.disposing = true
    this.finishListeners.clear()
    await Promise.all(this.list().map((shell) => this.stop(shell.id)))
  }
}
