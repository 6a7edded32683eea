import { randomBytes } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { AppError } from '../../../shared/ipc/result'
import type { MergePickInput, ParallelRun, ParallelSession, SessionFileDiff, TestRunRow } from '../../../shared/ipc/parallel'
import type { EventHub } from '../../base/event-hub'
import type { PtyService } from '../../pty/types'
import { applyMerge, type ApplyOutcome, type ApplyRequest } from '../merge/apply'
import { headOf, type WorktreeFile } from '../merge/changes'
import { checkGit } from '../git-version'
import type { AskModel } from '../merge/commit'
import { planMerge } from '../merge/plan'
import type { MergePlan, MergeSource } from '../merge/plan-types'
import { readSource } from '../merge/source'
import { runTestCommand } from '../merge/test-run'
import { commonDirOf } from './common-dir'
import { RunStore, type StoredRun, type StoredSession } from './run-store'
import { SessionActions } from './session-actions'
import type { WorktreeStarter } from './starter'
import { RunTracker } from './tracker'
import { RunWarmer } from './warmer'

/** What the desk needs from the session layer. */
export interface ParallelSessions {
  prompt(sessionId: string, text: string): Promise<void>
  setModel(sessionId: string, model: string | undefined): Promise<{ model: string }>
}

/** What {@link ParallelDesk} is built from. */
export interface ParallelDeskOptions {
  home: string
  env?: NodeJS.ProcessEnv
  hub: EventHub
  sessions: ParallelSessions
  starter: WorktreeStarter
  /** Terminals: the user's test command runs on one, as in the user's own terminal. */
  pty?: PtyService
  /** The small-model side request commit messages are drafted with. */
  ask?: () => Promise<AskModel>
}

const fileRow = (file: WorktreeFile) => ({ path: file.path, change: file.change, additions: file.additions, deletions: file.deletions, hunks: file.hunks, whole: file.whole, ...(file.unsupported && { unsupported: file.unsupported }) })

/**
 * Parallel sessions on worktrees, main side: Run on N (one prompt in N new worktree sessions),
 * each run's sessions with their state, cost and changed files, the compare view's diffs and test
 * runs, and the hunk-by-hunk merge into the base (`merge/`). Every request names a run and a
 * session; where the worktree is comes from the run's stored record, never from the caller.
 */
export class ParallelDesk {
  private readonly store: RunStore
  private readonly tracker: RunTracker
  private readonly warmer: RunWarmer
  /** Worktrees seen to share the base's repository (checked once per process). */
  private readonly checked = new Set<string>()
  /** Reads of a project's runs under way, by base path (see {@link runs}). */
  private readonly reading = new Map<string, Promise<ParallelRun[]>>()
  readonly actions: SessionActions

  constructor(private readonly options: ParallelDeskOptions) {
    this.store = new RunStore(options.home)
    this.warmer = new RunWarmer((runId) => this.run(runId))
    this.tracker = new RunTracker(options.hub, (runId) => this.warmer.moved(runId))
    this.actions = new SessionActions({ resolve: (runId, sessionId) => this.session(runId, sessionId), moved: (runId) => this.warmer.moved(runId), ...(options.env && { env: options.env }), ...(options.ask && { ask: options.ask }) })
  }

  /** Starts `prompt` in one new worktree session per entry of `models`; resolves once every prompt is accepted. */
  async start(projectPath: string, prompt: string, models: readonly string[]): Promise<ParallelRun> {
    const base = await realpath(projectPath).catch(() => {
      throw new AppError('NOT_FOUND', `No folder ${projectPath}.`)
    })
    // git missing or too old says so, rather than "not a repository".
    const gitCheck = await checkGit(this.options.env ?? process.env, base)
    if (!gitCheck.ok) throw new AppError('UNAVAILABLE', gitCheck.message)
    await headOf(base, this.options.env).catch(() => {
      throw new AppError('UNAVAILABLE', 'Parallel sessions need a git repository with at least one commit: worktrees are not available in this folder.')
    })
    const runId = `run_${randomBytes(4).toString('hex')}`
    const run: StoredRun = { runId, projectPath: base, prompt, createdAt: new Date().toISOString(), sessions: [] }
    // One at a time: git locks the repository's worktree list while it adds one.
    for (const [index, model] of models.entries()) {
      const name = `${runId.slice(4)}-${index + 1}-${model.replace(/[^\w.-]+/g, '-').toLowerCase()}`.slice(0, 60)
      const started = await this.options.starter.start(base, name)
      const session: StoredSession = { sessionId: started.sessionId, name: started.name, branch: started.branch, worktree: started.worktree, model }
      run.sessions.push(session)
      this.tracker.track(session.sessionId, runId, base)
      await this.store.save(run)
    }
    await Promise.all(
      run.sessions.map(async (session) => {
        try {
          if (session.model !== 'default') await this.options.sessions.setModel(session.sessionId, session.model)
          await this.options.sessions.prompt(session.sessionId, prompt)
          if (this.tracker.stateOf(session.sessionId)?.state === 'starting') this.tracker.set(session.sessionId, { state: 'running' })
        } catch (error) {
          this.tracker.set(session.sessionId, { state: 'failed', message: (error as Error).message })
        }
      }),
    )
    return this.run(runId)
  }

  /**
   * The project's runs, newest first, each with its sessions now. A call while another read of
   * the same project is under way shares it: the compare view opened at once after the project
   * races the window's idle warm-up, which asks the same, and on a busy machine two reads of
   * every worktree at once take twice as long as one. (Nothing is kept once the read is done.)
   */
  async runs(projectPath: string): Promise<ParallelRun[]> {
    const base = await realpath(projectPath).catch(() => projectPath)
    const under = this.reading.get(base)
    if (under) return under
    const read = this.readRuns(base).finally(() => this.reading.delete(base))
    this.reading.set(base, read)
    return read
  }

  /**
   * Reads the project's runs ahead, as soon as the project opens: the compare view's first open
   * right after it then finds the read cache ready (the fork points' files, the merge bases, the
   * hunk counts, each worktree checked as the base's), or shares this read if it is still under
   * way. The main side starts it, not the window's idle warm-up, which a busy machine puts off for
   * seconds. Nothing is kept that can go stale: the open lists and reads the working trees again.
   * A project without runs costs one listing of the runs folder. Contract: never rejects.
   */
  async warm(projectPath: string): Promise<void> {
    await this.runs(projectPath).catch(() => undefined)
  }

  private async readRuns(base: string): Promise<ParallelRun[]> {
    const runs = await this.store.list(base)
    // One read of the base's HEAD for every session of every run (all of this project).
    const baseHead = runs.length > 0 ? await headOf(base, this.options.env).catch(() => undefined) : undefined
    return Promise.all(runs.map((run) => this.view(run, baseHead)))
  }

  /** One run with its sessions now. */
  async run(runId: string): Promise<ParallelRun> {
    const run = await this.stored(runId)
    return this.view(run, await headOf(run.projectPath, this.options.env).catch(() => undefined))
  }

  /** One file of a session, both texts. */
  async diff(runId: string, sessionId: string, path: string): Promise<SessionFileDiff> {
    const source = await this.source(runId, sessionId)
    const file = source.files.get(path)
    if (!file) throw new AppError('NOT_FOUND', `${path} is not among the session's changes.`)
    return { path, change: file.change, whole: file.whole, ...(file.before !== undefined && { before: file.before }), ...(file.after !== undefined && { after: file.after }), ...(file.unsupported && { unsupported: file.unsupported }) }
  }

  /** The user's test command in each session's worktree (all at once), as the user's terminal runs it. */
  async test(runId: string, command: string, sessionIds?: readonly string[]): Promise<TestRunRow[]> {
    const pty = this.options.pty
    if (!pty) throw new AppError('UNAVAILABLE', 'Terminals are not available in this build, so test commands cannot run.')
    const run = await this.stored(runId)
    const foreign = sessionIds?.find((id) => !run.sessions.some((session) => session.sessionId === id))
    if (foreign) throw new AppError('NOT_FOUND', `No session ${foreign} in ${runId}.`)
    const chosen = run.sessions.filter((session) => !sessionIds || sessionIds.includes(session.sessionId))
    return Promise.all(
      chosen.map(async (session) => {
        const { worktree } = await this.session(runId, session.sessionId)
        return { sessionId: session.sessionId, ...(await runTestCommand(pty, { cwd: worktree, command })) }
      }),
    )
  }

  /** What applying `picks` would write in the base; nothing is written. */
  async plan(runId: string, picks: readonly MergePickInput[], resolutions?: Record<string, string>): Promise<MergePlan> {
    const run = await this.stored(runId)
    return planMerge(run.projectPath, await this.sources(run, picks), picks, resolutions, this.options.env)
  }

  /** Applies picks as previewed (see merge/apply.ts); tells the run's views. */
  async apply(runId: string, request: ApplyRequest): Promise<ApplyOutcome> {
    const run = await this.stored(runId)
    const outcome = await applyMerge(run.projectPath, await this.sources(run, request.picks), request, this.options.env)
    this.options.hub.emit('parallel.changed', { runId, projectPath: run.projectPath })
    return outcome
  }

  dispose(): void {
    this.warmer.dispose()
    this.tracker.dispose()
  }

  /** A session of a run, checked: its worktree still exists and shares the base's repository. */
  async session(runId: string, sessionId: string): Promise<StoredSession & { projectPath: string; prompt: string }> {
    const run = await this.stored(runId)
    const session = run.sessions.find((candidate) => candidate.sessionId === sessionId)
    if (!session) throw new AppError('NOT_FOUND', `No session ${sessionId} in ${runId}.`)
    await this.belongs(run, session)
    return { ...session, projectPath: run.projectPath, prompt: run.prompt }
  }

  /**
   * Throws NOT_FOUND unless the session's worktree still shares the base's repository: a run's
   * record is a file on disk, and a worktree folder can be removed and something else put there,
   * so nothing is read from a folder of another repository. Checked once per worktree and process.
   */
  private async belongs(run: StoredRun, session: StoredSession): Promise<void> {
    if (this.checked.has(session.worktree)) return
    const [ours, theirs] = await Promise.all([commonDirOf(run.projectPath, this.options.env), commonDirOf(session.worktree, this.options.env)])
    if (!ours || ours !== theirs) throw new AppError('NOT_FOUND', `The worktree of ${session.name} is gone or no longer belongs to ${run.projectPath}.`)
    this.checked.add(session.worktree)
  }

  private async stored(runId: string): Promise<StoredRun> {
    const run = await this.store.get(runId)
    if (!run) throw new AppError('NOT_FOUND', `No run ${runId}.`)
    return run
  }

  private async source(runId: string, sessionId: string): Promise<MergeSource> {
    // session() checks the worktree still belongs to the base before anything reads it.
    const session = await this.session(runId, sessionId)
    return readSource(session.projectPath, { sessionId, label: labelOf(session), worktree: session.worktree }, this.options.env).catch((error: unknown) => {
      throw new AppError('UNAVAILABLE', `The worktree of ${session.name} cannot be read: ${(error as Error).message}`)
    })
  }

  private async sources(run: StoredRun, picks: ReadonlyArray<{ sessionId: string }>): Promise<Map<string, MergeSource>> {
    const ids = [...new Set(picks.map((pick) => pick.sessionId))]
    // A pick naming a session of another run (or none) is refused, not quietly dropped.
    const foreign = ids.find((id) => !run.sessions.some((s) => s.sessionId === id))
    if (foreign) throw new AppError('NOT_FOUND', `No session ${foreign} in ${run.runId}.`)
    return new Map(await Promise.all(ids.map(async (id) => [id, await this.source(run.runId, id)] as const)))
  }

  /** A run's sessions now; `baseHead`: the base's HEAD, read once by the caller (each session reads it when absent). */
  private async view(run: StoredRun, baseHead?: string): Promise<ParallelRun> {
    this.warmer.reading(run.runId)
    const sessions = await Promise.all(
      run.sessions.map(async (session): Promise<ParallelSession> => {
        const live = this.tracker.stateOf(session.sessionId)
        const row = { sessionId: session.sessionId, name: session.name, branch: session.branch, worktree: session.worktree, model: session.model, state: live?.state ?? 'idle', costUsd: live?.costUsd ?? 0, ...(live?.message && { message: live.message }) }
        try {
          await this.belongs(run, session)
          const source = await readSource(run.projectPath, { sessionId: session.sessionId, label: labelOf(session), worktree: session.worktree }, this.options.env, baseHead)
          return { ...row, changed: [...source.files.values()].map(fileRow) }
        } catch (error) {
          return { ...row, changed: [], problem: `Its worktree cannot be read: ${(error as Error).message}` }
        }
      }),
    )
    return { runId: run.runId, projectPath: run.projectPath, prompt: run.prompt, createdAt: run.createdAt, sessions }
  }
}

/** How previews and conflict markers name a session: "worktree a1b2-2-sonnet (sonnet)". */
export function labelOf(session: { name: string; model: string }): string {
  return `${session.name} (${session.model})`
}
