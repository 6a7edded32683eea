import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ToolPreview } from '../../tools/types'
import type { SessionGrants } from '../decide/session'
import { keepSettingsTrust } from '../trust/trust'
import type { DecisionPreview, Explanation } from '../types'
import type { ApprovedEdit } from './edit-approval'
import { addRulesToSettingsFile } from './settings-writer'
import { MAX_SUGGESTED_RULES } from './suggest'

/** A call waiting for the user. */
export interface ApprovalRequest {
  id: string
  /** The session and the tool_use the request belongs to (the UI places the card with them). */
  sessionId?: string
  toolUseId?: string
  toolName: string
  input: unknown
  preview?: ToolPreview | DecisionPreview
  explanation: Explanation
  /** Editable rules offered for "allow for this session" / "always allow". */
  suggestions: string[]
  /** The subagent asking, when it is not the session's main agent (the card names it). */
  agent?: AgentLabel
}

/** Which subagent a request comes from: its id, its type and the description it was given. */
export interface AgentLabel {
  id: string
  type: string
  description: string
}

/** Where a session's calls ask: its approval queue, or a subagent's view of it (see agents/). */
export interface ApprovalAsker {
  /** Whether a person answers (the approval queue a UI shows); false for the unattended answerer (see answerer.ts). */
  readonly attended: boolean
  request(req: Omit<ApprovalRequest, 'id' | 'suggestions'> & { suggestions?: string[]; signal?: AbortSignal; grants?: SessionGrants }): Promise<ApprovalOutcome>
  /** The grants decide() consults for the asking agent. */
  readonly sessionGrants: SessionGrants
}

/** An approved plan: the text as the user left it, and the mode that follows (absent: the one before plan mode). */
export interface ApprovedPlan {
  text?: string
  mode?: 'acceptEdits' | 'default'
}

/** The user's answer. `rules` default to the request's suggestions. */
export type ApprovalReply =
  | { kind: 'allow_once'; edit?: ApprovedEdit; plan?: ApprovedPlan }
  | { kind: 'allow_session'; rules?: string[] }
  | { kind: 'allow_always'; rules?: string[]; destination?: 'local' | 'user' }
  | { kind: 'reject'; message?: string }

/**
 * What the interactive queue settles a request with: the person's answer, or `aborted` (the turn
 * stopped, the session closed). Only these reach the UI (`approval.resolved`).
 */
export type QueueOutcome =
  | {
      behavior: 'allow'
      scope: 'once' | 'session' | 'always'
      rules: string[]
      warning?: string
      /** The diff view's result: write exactly this (Edit/Write approvals only). */
      edit?: ApprovedEdit
      /** The plan card's result (plan approvals only). */
      plan?: ApprovedPlan
    }
  | {
      behavior: 'deny'
      reason: 'rejected' | 'aborted'
      message: string
      /** What the user wrote with a rejection, as written (a plan's "keep planning" feedback). */
      feedback?: string
    }

/**
 * What the engine gets back from any answerer. A deny's `message` goes to the model as the (error)
 * tool_result; `headless` is the unattended answerer's denial (nobody could answer), which never
 * leaves the main process.
 */
export type ApprovalOutcome = QueueOutcome | { behavior: 'deny'; reason: 'headless'; message: string; feedback?: undefined }

/** Options of {@link ApprovalQueue}. */
export interface ApprovalQueueOptions {
  projectRoot: string
  /** `$SOUS_HOME`: "always allow" with destination `user` writes `<sousHome>/settings.json`. */
  sousHome: string
  sessionGrants: SessionGrants
}

interface Pending {
  request: ApprovalRequest
  /** Where "allow for this session" goes: the asking agent's grants (a subagent has its own). */
  grants: SessionGrants
  settle(outcome: ApprovalOutcome): void
}

/**
 * The interactive answerer: pending approval requests the UI resolves. Contract: every promise returned by {@link request}
 * settles exactly once — by the user's reply, by the signal's abort, or by {@link dispose}.
 */
export class ApprovalQueue implements ApprovalAsker {
  readonly attended = true
  private readonly pendingById = new Map<string, Pending>()
  private readonly listeners = new Set<(pending: ApprovalRequest[]) => void>()
  private readonly settledListeners = new Set<(request: ApprovalRequest, outcome: QueueOutcome) => void>()

  constructor(private readonly opts: ApprovalQueueOptions) {}

  /**
   * Queues an ask; resolves when the user answers or `signal` aborts. `grants`: where "allow for
   * this session" goes (default the session's own; a subagent passes its own).
   */
  request(req: Omit<ApprovalRequest, 'id' | 'suggestions'> & { suggestions?: string[]; signal?: AbortSignal; grants?: SessionGrants }): Promise<ApprovalOutcome> {
    const { signal, grants = this.opts.sessionGrants, ...rest } = req
    const request: ApprovalRequest = { ...rest, id: randomUUID(), suggestions: (rest.suggestions ?? []).slice(0, MAX_SUGGESTED_RULES) }
    if (signal?.aborted) return Promise.resolve(aborted(req.toolName))
    return new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = (): void => this.settle(request.id, aborted(req.toolName))
      const settle = (outcome: ApprovalOutcome): void => {
        signal?.removeEventListener('abort', onAbort)
        resolve(outcome)
      }
      this.pendingById.set(request.id, { request, grants, settle })
      signal?.addEventListener('abort', onAbort, { once: true })
      this.emit()
    })
  }

  /** The session's "allow for this session" grants (decide() consults them). */
  get sessionGrants(): SessionGrants {
    return this.opts.sessionGrants
  }

  /** Requests waiting for an answer, oldest first. */
  pending(): ApprovalRequest[] {
    return [...this.pendingById.values()].map((p) => p.request)
  }

  /** Called with the pending list whenever it changes; returns an unsubscribe function. */
  subscribe(listener: (pending: ApprovalRequest[]) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Called once per request when it settles (answered, aborted, disposed); returns an unsubscribe function. */
  onSettled(listener: (request: ApprovalRequest, outcome: QueueOutcome) => void): () => void {
    this.settledListeners.add(listener)
    return () => this.settledListeners.delete(listener)
  }

  /** A pending request by id. */
  get(id: string): ApprovalRequest | undefined {
    return this.pendingById.get(id)?.request
  }

  /**
   * Applies the user's reply. Returns an error message for an unknown id or rules that could not be
   * saved (the call is still allowed once in that case, and the warning says why the rule was not kept).
   */
  resolve(id: string, reply: ApprovalReply): string | undefined {
    const p = this.pendingById.get(id)
    if (!p) return `no pending approval ${id}`
    const rules = ('rules' in reply && reply.rules ? reply.rules : p.request.suggestions).slice(0, MAX_SUGGESTED_RULES)
    switch (reply.kind) {
      case 'allow_once':
        this.settle(id, { behavior: 'allow', scope: 'once', rules: [], ...(reply.edit ? { edit: reply.edit } : {}), ...(reply.plan ? { plan: reply.plan } : {}) })
        return undefined
      case 'allow_session': {
        const errors = rules.map((r) => p.grants.add(r)).filter((e): e is string => !!e)
        this.settle(id, { behavior: 'allow', scope: 'session', rules, ...(errors.length ? { warning: errors.join('; ') } : {}) })
        return errors.length ? errors.join('; ') : undefined
      }
      case 'allow_always': {
        const user = reply.destination === 'user'
        const file = user ? join(this.opts.sousHome, 'settings.json') : join(this.opts.projectRoot, '.claude', 'settings.local.json')
        // The user's own rule in a trusted project must not make the project ask for trust again.
        const save = () => addRulesToSettingsFile(file, 'allow', rules)
        const error = user ? save() : keepSettingsTrust(this.opts.projectRoot, this.opts.sousHome, save)
        // The saved rule takes effect at the next settings load; grant it for this session right away.
        for (const r of rules) p.grants.add(r)
        this.settle(id, { behavior: 'allow', scope: error ? 'once' : 'always', rules, ...(error ? { warning: error } : {}) })
        return error
      }
      case 'reject': {
        const text = reply.message?.trim()
        const message = text ? `The user rejected this ${p.request.toolName} call and said: ${text}` : `The user rejected this ${p.request.toolName} call.`
        this.settle(id, { behavior: 'deny', reason: 'rejected', message, ...(text ? { feedback: text } : {}) })
        return undefined
      }
    }
  }

  /** Rejects every pending request (session end). */
  dispose(): void {
    for (const [id, p] of [...this.pendingById]) this.settle(id, aborted(p.request.toolName))
  }

  private settle(id: string, outcome: QueueOutcome): void {
    const p = this.pendingById.get(id)
    if (!p) return
    this.pendingById.delete(id)
    p.settle(outcome)
    for (const l of this.settledListeners) l(p.request, outcome)
    this.emit()
  }

  private emit(): void {
    const list = this.pending()
    for (const l of this.listeners) l(list)
  }
}

function aborted(toolName: string): QueueOutcome {
  return { behavior: 'deny', reason: 'aborted', message: `The ${toolName} call was cancelled before it was approved.` }
}
