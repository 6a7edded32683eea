// Longer than 300 lines because the manager is the one SessionService: every request on a live or
// stored session passes here as a short delegation to the session or its parts.
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { PermissionModeName } from '../../shared/ipc/contract'
import type { PeerPolicyName, PeerStatus } from '../../shared/ipc/peers'
import type { PauseChoice } from '../../shared/protocol/agent-event'
import type { EffortLevel } from '../../shared/ipc/session'
import type { AgentTree } from '../../shared/protocol/agent-tree'
import { storedAgentEvents, storedAgentTree } from '../agents/stored-tree'
import type { ContextBreakdown } from '../../shared/ipc/context'
import { AppError } from '../../shared/ipc/result'
import { projectDataDir } from '../base/paths'
import type { QueryResult } from '../engine/types'
import type { AutoDecision } from '../governance/auto/decision-log'
import { writePeerChoice } from '../store/peers/peer-choice'
import { peersDir } from '../store/peers/peer-registry'
import { findTranscriptFile, listSessions, loadStoredTranscript, summarize, type SessionSummary } from '../store/session-index'
import { lockTranscript } from '../store/session-lock'
import { isSessionId, loadTranscript, transcriptPath, type LoadedTranscript } from '../store/transcript'
import type { Session } from './session'
import { closeLiveSession, openLiveSession, type LiveSession, type SessionParts } from './live-session'
import { compactionsOf, lastTotals, storedTasks } from './stored-state'
import { combineTurns } from './turn-feed'
import type { AgentHistory, PromptImage, SessionHistory, SessionService } from './types'

/** How the manager builds each session's parts. */
export interface SessionManagerOptions<P extends SessionParts = SessionParts> {
  /** `$SOUS_HOME`. */
  home: string
  /** Builds what one session is made of, before the session (see runtime/open-session.ts). */
  open: (projectPath: string, sessionId: string) => P
}

/**
 * Owns every live session. Implements {@link SessionService}: sessions are created or resumed
 * from their transcripts, prompts run in the background, events go out on the hub. Each live
 * session holds its transcript's lock (see store/session-lock), so another Sous process cannot
 * open the same session and interleave its writes. One record per live session
 * ({@link LiveSession}: its parts, the session, the lock), ended in one place.
 */
export class SessionManager<P extends SessionParts = SessionParts> implements SessionService {
  private readonly live = new Map<string, LiveSession<P>>()
  private readonly turns = new Set<Promise<QueryResult>>()
  /** Resumes in flight, so two calls for one id in this process open it once. */
  private readonly opening = new Map<string, Promise<LoadedTranscript>>()

  constructor(private readonly options: SessionManagerOptions<P>) {}

  async create(projectPath: string): Promise<{ sessionId: string; mode?: PermissionModeName; autoModeOff?: boolean }> {
    const sessionId = randomUUID()
    const root = resolve(projectPath)
    const unlock = await lockTranscript(this.pathOf(root, sessionId), sessionId)
    const { parts } = this.open(sessionId, root, unlock)
    const mode = parts.mode?.()
    return { sessionId, ...(mode && { mode }), ...(parts.auto?.off() && { autoModeOff: true }) }
  }

  /** What was built for a live session (its gate, its task list…); undefined when it is not open here. */
  parts(sessionId: string): P | undefined {
    return this.live.get(sessionId)?.parts
  }

  async prompt(sessionId: string, text: string, images?: readonly PromptImage[]): Promise<void> {
    const turn = this.get(sessionId).runTurn(text, images)
    this.turns.add(turn)
    void turn.finally(() => this.turns.delete(turn))
  }

  async abort(sessionId: string): Promise<void> {
    await this.live.get(sessionId)?.session.abort()
  }

  /** Answers a turn waiting at its request guard: go on for another round of requests, or stop. */
  async continueTurn(sessionId: string, proceed: boolean): Promise<void> {
    if (!this.get(sessionId).answerTurnLimit(proceed)) throw new AppError('CONFLICT', 'No turn of this session is waiting to go on.')
  }

  /** Answers a run paused by the budget guard or the loop brake. */
  async resumePause(sessionId: string, pauseId: string, choice: PauseChoice, raiseTo?: number): Promise<void> {
    if (!this.get(sessionId).answerPause(pauseId, { choice, ...(raiseTo !== undefined && { raiseTo }) })) throw new AppError('CONFLICT', 'No run of this session is paused with that id.')
  }

  /** `/think`: thinking and effort for a live session's next requests. */
  async setReasoning(sessionId: string, change: { thinking?: boolean; effort?: EffortLevel }): Promise<{ thinking: boolean; effort?: EffortLevel }> {
    return this.get(sessionId).setReasoning(change)
  }

  /** Switches a live session's permission mode; it applies from the next tool call. */
  async setMode(sessionId: string, mode: PermissionModeName): Promise<void> {
    const set = this.record(sessionId).parts.setMode
    if (!set) throw new AppError('UNAVAILABLE', 'This session has no permission gate to switch.')
    set(mode)
  }

  /** A live session's place among the sessions of this machine. */
  async peerStatus(sessionId: string): Promise<PeerStatus> {
    const peers = this.record(sessionId).parts.peers
    if (!peers) throw new AppError('UNAVAILABLE', 'This session does not take part in messages between sessions.')
    return peers.status()
  }

  /** The per-session toggle for messages from other sessions. */
  async setPeerPolicy(sessionId: string, policy: PeerPolicyName | undefined): Promise<PeerStatus> {
    const peers = this.record(sessionId).parts.peers
    if (!peers) throw new AppError('UNAVAILABLE', 'This session does not take part in messages between sessions.')
    peers.setOverride(policy)
    return peers.status()
  }

  /** Releases or drops a message a live session holds for its user. */
  async settlePeerMessage(sessionId: string, messageId: string, action: 'release' | 'drop'): Promise<void> {
    if (!this.record(sessionId).parts.peers?.settleHeld(messageId, action)) throw new AppError('NOT_FOUND', 'No message of that id is held in this session.')
  }

  /** A live session's permission mode now (undefined where its parts have no gate). */
  permissionMode = (sessionId: string): PermissionModeName | undefined => this.record(sessionId).parts.mode?.()
  /** Auto mode's decisions in a live session, oldest first. */
  autoDecisions = async (sessionId: string): Promise<AutoDecision[]> => this.record(sessionId).parts.auto?.decisions() ?? []
  /** "Ask me next time" for one of a live session's auto-mode decisions. */
  async askNextTime(sessionId: string, decisionId: string, scope: 'session' | 'project'): Promise<void> {
    const auto = this.record(sessionId).parts.auto
    const error = auto ? auto.askNextTime(decisionId, scope) : 'This session has no permission gate.'
    if (error) throw new AppError('INVALID_INPUT', error)
  }

  /** Switches a live session's model from its next request (`undefined`: back to the default). */
  async setModel(sessionId: string, model: string | undefined): Promise<{ model: string }> {
    return { model: await this.get(sessionId).switchModel(model) }
  }

  /** `/compact [instructions]` (see SessionService.compact). */
  async compact(sessionId: string, instructions?: string): Promise<{ queued: boolean }> {
    const { queued, done } = this.get(sessionId).compact(instructions)
    if (done) {
      this.turns.add(done)
      void done.finally(() => this.turns.delete(done))
    }
    return { queued }
  }

  /** The context view's figures for a live session. */
  /** The tool names a live session's next request offers (`sous -p`'s stream-json init line). */
  async toolNames(sessionId: string): Promise<string[]> {
    return this.get(sessionId).toolNames()
  }

  async inspectContext(sessionId: string): Promise<ContextBreakdown> {
    return this.get(sessionId).inspectContext()
  }

  /** Resolves once the set-up a live session started when it opened (its system prompt) has settled. */
  async whenPrepared(sessionId: string): Promise<void> {
    await this.get(sessionId).whenPrepared()
  }

  /** Runs one turn and waits for its end (the headless CLI). */
  async run(sessionId: string, text: string): Promise<QueryResult> {
    return this.get(sessionId).runTurn(text)
  }

  /**
   * Runs one turn, then waits for the reports of the work it started and their turns (a coordinator's
   * workers; `sous -p --coordinator`): one result for all (see combineTurns). Aborting `signal` stops the wait.
   */
  async runSettled(sessionId: string, text: string, signal?: AbortSignal): Promise<QueryResult> {
    const { session, parts } = this.record(sessionId)
    const first = await session.runTurn(text)
    const settle = parts.settled
    if (first.reason !== 'completed' || !settle || signal?.aborted) return first
    const stopped = new Promise<'aborted'>((resolve) => signal?.addEventListener('abort', () => resolve('aborted'), { once: true }))
    const later = await Promise.race([settle.call(parts), stopped])
    if (later === 'aborted') return { ...first, reason: 'aborted', message: 'Stopped while the workers were still at work.' }
    return combineTurns(first, later)
  }

  /** Resolves once a live session's background work (memory recall and extraction) has settled. */
  async idle(sessionId: string): Promise<void> {
    await this.live.get(sessionId)?.session.memoryIdle()
  }

  /** Stored sessions of a project (or of all projects), newest first. */
  async list(projectPath?: string): Promise<SessionSummary[]> {
    return listSessions(this.options.home, projectPath === undefined ? undefined : resolve(projectPath))
  }

  /**
   * Brings a stored session back (repairing a transcript cut mid-turn). Rejects with CONFLICT when
   * another Sous process has it open.
   */
  async resume(sessionId: string): Promise<SessionSummary> {
    if (this.live.has(sessionId)) {
      const found = await this.find(sessionId)
      if (!found) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
      return summarize(found)
    }
    let opening = this.opening.get(sessionId)
    if (!opening) {
      opening = this.openStored(sessionId).finally(() => this.opening.delete(sessionId))
      this.opening.set(sessionId, opening)
    }
    return summarize(await opening)
  }

  /** Resumes the most recent session of a project. */
  async continueLatest(projectPath: string): Promise<SessionSummary> {
    const [latest] = await this.list(projectPath)
    if (!latest) throw new AppError('NOT_FOUND', `No earlier session in ${resolve(projectPath)}.`)
    return this.resume(latest.sessionId)
  }

  /** Stored events of a session, to redraw it. */
  async history(sessionId: string): Promise<SessionHistory> {
    const found = await this.find(sessionId)
    if (!found) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    return { summary: summarize(found), events: found.events, times: found.eventTimes }
  }

  /** The tree of a session: rebuilt from its transcripts, with what runs in this process marked live. */
  async agentTree(sessionId: string): Promise<AgentTree> {
    const { projectPath, live } = await this.locate(sessionId)
    const tasks = live ? await live.tree.taskSnapshot() : await storedTasks(projectDataDir(this.options.home, projectPath), sessionId)
    return storedAgentTree({ sessionId, transcriptPath: this.pathOf(projectPath, sessionId), live: live?.tree.liveNodeIds() ?? new Set(), ...(tasks && { tasks }) })
  }

  /** One agent's stored events (`main`: the session's own). */
  async agentHistory(sessionId: string, agentId: string): Promise<AgentHistory> {
    const { projectPath } = await this.locate(sessionId)
    const events = await storedAgentEvents(this.pathOf(projectPath, sessionId), agentId)
    if (!events) throw new AppError('NOT_FOUND', `No agent ${agentId} in session ${sessionId}.`)
    return events
  }

  /** Stops a node of a live session's tree (see SessionTree.stopNode). */
  async stopAgentNode(sessionId: string, nodeId: string): Promise<void> {
    const stopped = await this.get(sessionId).tree.stopNode(nodeId)
    if (!stopped) throw new AppError('NOT_FOUND', `Nothing called ${nodeId} runs in session ${sessionId}.`)
  }

  async rename(sessionId: string, title: string): Promise<void> {
    const live = this.live.get(sessionId)
    if (live) return live.session.rename(title)
    await this.resume(sessionId)
    this.get(sessionId).rename(title)
  }

  /** Whether a turn runs in a session open here. */
  isBusy(sessionId: string): boolean {
    return this.live.get(sessionId)?.session.busy === true
  }

  /**
   * Runs `work` on a live session's stored files with the session closed (its checkpoints settled,
   * its lock let go), then opens it again from its transcript: how a rewind replaces the
   * conversation of an open session. A session that is not open here only runs `work`. Rejects
   * with CONFLICT while a turn runs.
   */
  async whileClosed<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const live = this.live.get(sessionId)
    if (!live) return work()
    if (live.session.busy) throw new AppError('CONFLICT', 'A turn is running in this session: stop it first.')
    this.live.delete(sessionId)
    await closeLiveSession(live)
    try {
      return await work()
    } finally {
      await this.resume(sessionId)
    }
  }

  /** The folder a session (open here or stored) belongs to; undefined when there is no such session. */
  async projectOf(sessionId: string): Promise<string | undefined> {
    return this.locate(sessionId).then((found) => found.projectPath, () => undefined)
  }

  /** Whether a session is open here, stored on disk, or gone (the worktree list's question). */
  async presence(sessionId: string): Promise<'live' | 'stored' | 'gone'> {
    if (this.live.has(sessionId)) return 'live'
    return isSessionId(sessionId) && (await findTranscriptFile(this.options.home, sessionId)) ? 'stored' : 'gone'
  }

  /** Stops a live session's turn and closes it (its transcript stays); nothing when it is not open here. */
  async close(sessionId: string): Promise<void> {
    const live = this.live.get(sessionId)
    if (!live) return
    await live.session.abort()
    this.live.delete(sessionId)
    await closeLiveSession(live)
  }

  /** Stops the session if it runs and deletes its transcript (never one another process has open). */
  async delete(sessionId: string): Promise<void> {
    const live = this.live.get(sessionId)
    const found = await this.find(sessionId)
    if (!live && !found) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    const path = this.pathOf(live?.session.projectPath ?? found!.projectPath, sessionId)
    // A stored session is locked while its files go, so no other process opens it meanwhile.
    const unlock = live ? undefined : await lockTranscript(path, sessionId)
    try {
      // The live session's lock is held until its files are gone.
      if (live) await closeLiveSession({ ...live, unlock: async () => {} })
      this.live.delete(sessionId)
      await rm(path, { force: true })
      // Its subagents' sidechains (`<id>/agents/`) go with it, and its choice for messages from other sessions.
      await rm(path.replace(/\.jsonl$/, ''), { recursive: true, force: true })
      await writePeerChoice(peersDir(this.options.home), sessionId, undefined)
    } finally {
      await (live?.unlock ?? unlock)?.()
    }
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.live.values()].map((live) => closeLiveSession(live)))
    await Promise.all(this.turns)
    this.live.clear()
  }

  private async openStored(sessionId: string): Promise<LoadedTranscript> {
    const file = await findTranscriptFile(this.options.home, sessionId)
    const stored = file ? await loadTranscript(file) : undefined
    if (!stored) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    const release = await lockTranscript(this.pathOf(stored.projectPath, sessionId), sessionId)
    // Read again under the lock: the other process may have written until it let go.
    const found = await loadTranscript(this.pathOf(stored.projectPath, sessionId)).catch(() => undefined)
    if (!found) {
      await release()
      throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    }
    const { session } = this.open(sessionId, found.projectPath, release, found)
    if (found.repaired) session.persistRepair()
    return found
  }

  /** Builds the session's parts, then the session over them, and keeps the record. */
  private open(sessionId: string, projectPath: string, unlock: () => Promise<void>, stored?: LoadedTranscript): LiveSession<P> {
    const paths = { projectDataDir: projectDataDir(this.options.home, projectPath), transcriptPath: this.pathOf(projectPath, sessionId) }
    const turns = stored?.events.filter((event) => event.type === 'turn_start' && event.agentId === 'main').length
    const seed = stored ? { messages: stored.messages, ...lastTotals(stored.events), persisted: true, compactions: compactionsOf(stored.events), turns } : undefined
    const live = openLiveSession({ sessionId, projectPath }, this.options.open(projectPath, sessionId), paths, unlock, seed)
    this.live.set(sessionId, live)
    return live
  }

  private record(sessionId: string): LiveSession<P> {
    const live = this.live.get(sessionId)
    if (!live) throw new AppError('NOT_FOUND', `No open session ${sessionId}.`)
    return live
  }

  private get(sessionId: string): Session {
    return this.record(sessionId).session
  }

  private pathOf(projectPath: string, sessionId: string): string {
    return transcriptPath(this.options.home, projectPath, sessionId)
  }

  /** Where a session is, and its live object when it is open here. */
  private async locate(sessionId: string): Promise<{ projectPath: string; live?: Session }> {
    const live = this.live.get(sessionId)?.session
    if (live) return { projectPath: live.projectPath, live }
    const file = isSessionId(sessionId) ? await findTranscriptFile(this.options.home, sessionId) : undefined
    const stored = file ? await loadTranscript(file) : undefined
    if (!stored) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
    return { projectPath: stored.projectPath }
  }

  /** Finds a stored session by id in any project. */
  private async find(sessionId: string): Promise<LoadedTranscript | undefined> {
    if (!isSessionId(sessionId)) return undefined
    const live = this.live.get(sessionId)?.session
    if (live) return loadTranscript(this.pathOf(live.projectPath, sessionId))
    const file = await findTranscriptFile(this.options.home, sessionId)
    return file ? loadStoredTranscript(file) : undefined
  }
}
