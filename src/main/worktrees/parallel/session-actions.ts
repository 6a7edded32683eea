import { AppError } from '../../../shared/ipc/result'
import { commitAll, draftCommitMessage, type AskModel } from '../merge/commit'
import { openPullRequest, prAvailability, type PrAvailability } from '../merge/pull-request'
import { applyUpdate, previewUpdate, type UpdatePreview } from '../merge/update-from-base'
import type { StoredSession } from './run-store'

/** A session of a run as the actions need it. */
type Resolved = StoredSession & { projectPath: string; prompt: string }

/**
 * The per-session actions of the parallel view: Update from base (preview, then merge or rebase),
 * a commit with a drafted message, and Open PR where `gh` is set up. `moved` hears of an update or
 * a commit done (the worktree's HEAD moved): the desk reads the run ahead then.
 */
export class SessionActions {
  constructor(private readonly deps: { resolve(runId: string, sessionId: string): Promise<Resolved>; env?: NodeJS.ProcessEnv; ask?: () => Promise<AskModel>; moved?: (runId: string) => void }) {}

  async updatePreview(runId: string, sessionId: string): Promise<UpdatePreview> {
    const session = await this.deps.resolve(runId, sessionId)
    return previewUpdate(session.projectPath, session.worktree, this.deps.env)
  }

  async update(runId: string, sessionId: string, choice: { mode: 'merge' | 'rebase'; baseHead: string; head: string }): Promise<{ head: string }> {
    const session = await this.deps.resolve(runId, sessionId)
    const updated = await applyUpdate(session.projectPath, session.worktree, choice, this.deps.env)
    this.deps.moved?.(runId)
    return updated
  }

  async draftCommit(runId: string, sessionId: string): Promise<{ message: string }> {
    const session = await this.deps.resolve(runId, sessionId)
    if (!this.deps.ask) throw new AppError('UNAVAILABLE', 'No model is available to draft the message: write one.')
    const ask = await this.deps.ask()
    return { message: await draftCommitMessage(session.worktree, ask, { prompt: session.prompt }, this.deps.env) }
  }

  async commit(runId: string, sessionId: string, message: string): Promise<{ commit: string }> {
    const session = await this.deps.resolve(runId, sessionId)
    const committed = await commitAll(session.worktree, message, this.deps.env)
    this.deps.moved?.(runId)
    return committed
  }

  async prStatus(runId: string, sessionId: string): Promise<PrAvailability> {
    const session = await this.deps.resolve(runId, sessionId)
    return prAvailability(session.worktree, this.deps.env)
  }

  async openPr(runId: string, sessionId: string, pr: { title: string; body: string }): Promise<{ url: string }> {
    const session = await this.deps.resolve(runId, sessionId)
    return openPullRequest(session.worktree, session.branch, pr, this.deps.env)
  }
}
