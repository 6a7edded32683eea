import type { AutoDecision } from '../governance/auto/decision-log'
import type { AgentEvent, PauseChoice } from '../../shared/protocol/agent-event'
import type { EffortLevel } from '../../shared/ipc/session'
import type { AgentTree } from '../../shared/protocol/agent-tree'
import type { ContextBreakdown } from '../../shared/ipc/context'
import type { PermissionModeName } from '../../shared/ipc/contract'
import type { PeerPolicyName, PeerStatus } from '../../shared/ipc/peers'
import type { SessionSummary } from '../store/session-index'

/** A picture sent with a prompt (base64 of PNG, JPEG, GIF or WebP). */
export interface PromptImage {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  data: string
}

export type { SessionSummary }

/** A stored session's history, for a UI that opens it: its row and its events (no deltas). */
export interface SessionHistory {
  summary: SessionSummary
  events: AgentEvent[]
  /** When each event was recorded (ms since the epoch), for a replay. */
  times: number[]
}

/** One agent's stored events and when each was recorded (ms since the epoch). */
export interface AgentHistory {
  events: AgentEvent[]
  times: number[]
}

/**
 * What the host needs from the session layer. The SessionManager implements it; handlers and
 * the CLI call it. Replies stream out as `agent.event`s on the EventHub, not as return values.
 * Failures a caller can expect (unknown id, a turn already running) reject with an `AppError`.
 */
export interface SessionService {
  /** Starts a new conversation in a project; returns its id. */
  create(projectPath: string): Promise<{ sessionId: string; mode?: PermissionModeName; autoModeOff?: boolean }>
  /** Starts a turn. Resolves once the turn is accepted (not when it ends). */
  prompt(sessionId: string, text: string, images?: readonly PromptImage[]): Promise<void>
  /** Stops the running turn, if any. */
  abort(sessionId: string): Promise<void>
  /** Stored sessions of a project (or of all projects), newest first. */
  list(projectPath?: string): Promise<SessionSummary[]>
  /** Brings a stored session back (repairing a transcript cut mid-turn). */
  resume(sessionId: string): Promise<SessionSummary>
  /** Resumes the most recent session of a project. */
  continueLatest(projectPath: string): Promise<SessionSummary>
  /** Stored events of a session, to redraw it. */
  history(sessionId: string): Promise<SessionHistory>
  /** Gives a session a new title. */
  rename(sessionId: string, title: string): Promise<void>
  /** Stops a session if it runs and deletes its transcript. */
  delete(sessionId: string): Promise<void>
  /** Switches the model of a session's next requests (`undefined`: back to the default); returns the model now used. */
  setModel(sessionId: string, model: string | undefined): Promise<{ model: string }>
  /** Answers a turn waiting at its request guard: go on, or stop. Rejects with CONFLICT when none waits. */
  continueTurn(sessionId: string, proceed: boolean): Promise<void>
  /** Answers a run paused by the budget guard or the loop brake. Rejects with CONFLICT when no such pause waits. */
  resumePause(sessionId: string, pauseId: string, choice: PauseChoice, raiseTo?: number): Promise<void>
  /** `/think`: thinking and effort for the session's next requests; answers what is in force. */
  setReasoning(sessionId: string, change: { thinking?: boolean; effort?: EffortLevel }): Promise<{ thinking: boolean; effort?: EffortLevel }>
  /** Auto mode's decisions in a live session, oldest first. */
  autoDecisions(sessionId: string): Promise<AutoDecision[]>
  /** "Ask me next time" for one auto-mode decision; rejects with INVALID_INPUT when it cannot. */
  askNextTime(sessionId: string, decisionId: string, scope: 'session' | 'project'): Promise<void>
  /** A live session among the sessions of this machine: its address, policy and held messages (NOT_FOUND: not open here). */
  peerStatus(sessionId: string): Promise<PeerStatus>
  /** The per-session toggle for messages from other sessions (`undefined`: the settings decide). */
  setPeerPolicy(sessionId: string, policy: PeerPolicyName | undefined): Promise<PeerStatus>
  /** Releases or drops a held message; NOT_FOUND when none of that id is held. */
  settlePeerMessage(sessionId: string, messageId: string, action: 'release' | 'drop'): Promise<void>
  /** Switches a session's permission mode. Rejects with UNAVAILABLE when the session has no gate to switch. */
  setMode(sessionId: string, mode: PermissionModeName): Promise<void>
  /** The tree of a session's agents, commands and tasks (live, or rebuilt from its transcripts). */
  agentTree(sessionId: string): Promise<AgentTree>
  /** One agent's stored events (`main`: the session's own). */
  agentHistory(sessionId: string, agentId: string): Promise<AgentHistory>
  /** Stops a node of a live session's tree and what is below it. */
  stopAgentNode(sessionId: string, nodeId: string): Promise<void>
  /**
   * `/compact [instructions]`: summarizes the conversation now (its events stream as a turn), or,
   * while a turn runs, before that turn's next request (`queued`).
   */
  compact(sessionId: string, instructions?: string): Promise<{ queued: boolean }>
  /** What the session's next request holds, sized, and what compaction did and would do (the context view). */
  inspectContext(sessionId: string): Promise<ContextBreakdown>
  /** Whether a turn runs in a session open here. */
  isBusy?(sessionId: string): boolean
  /** Runs `work` with a live session closed, then opens it again (see SessionManager.whileClosed). */
  whileClosed?<T>(sessionId: string, work: () => Promise<T>): Promise<T>
  /** Ends every session; nothing keeps running. */
  dispose(): Promise<void>
}
