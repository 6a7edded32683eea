import { z } from 'zod'
import { WorktreeInfo, WorktreeName } from './worktrees'
import { AgentEvent, PauseChoice } from '../protocol/agent-event'
import { AbsPath, Id } from './common'
import { peerRequests } from './peers'

import { PERMISSION_MODE_NAMES } from '../permission-modes'
import { PermissionModeInput } from './modes'
export { PermissionModeInput, PermissionModeName } from './modes'
import { EffortLevel } from './effort'
export { EffortLevel } from './effort'

/** One stored conversation, as the session list shows it. */
export const SessionSummary = z.object({
  sessionId: z.string(),
  projectPath: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number(),
  /** Lines of its transcript that could not be read and were left out. */
  skippedLines: z.number().optional(),
})
export type SessionSummary = z.infer<typeof SessionSummary>

/** A session that matched a text search, with the line that matched. */
export const SessionMatch = z.object({ summary: SessionSummary, snippet: z.string() })
export type SessionMatch = z.infer<typeof SessionMatch>

/** One file the agent changed in a session, with its combined unified diff. */
export const FileChange = z.object({ path: z.string(), created: z.boolean(), patch: z.string() })
export type FileChange = z.infer<typeof FileChange>

/** `session.*`: conversations with the agent, running and stored. */
/** One decision of auto mode's classifier, as the decision log lists it. */
export const AutoDecisionEntry = z.object({
  id: z.string(),
  toolUseId: z.string(),
  toolName: z.string(),
  summary: z.string(),
  pattern: z.string(),
  decision: z.enum(['allow', 'ask']),
  reason: z.string(),
  durationMs: z.number(),
  model: z.string(),
  at: z.number(),
  askNextTime: z.enum(['session', 'project']).optional(),
})
export type AutoDecisionEntry = z.infer<typeof AutoDecisionEntry>

export const sessionRequests = {
  ...peerRequests,
  /** Starts a new conversation in a project. */
  /**
   * Starts a conversation. `mode` is the mode it starts in (the settings' `defaultMode` may name one);
   * `autoModeOff` says `disableAutoMode` is set, so Shift+Tab leaves auto out.
   */
  'session.create': {
    /**
     * `worktree`: start it in a new git worktree of the project's repository (`name` optional, a
     * random one otherwise); the answer's `worktree` says where, `notes` what to tell the user once.
     */
    input: z.object({ projectPath: AbsPath, worktree: z.object({ name: WorktreeName.optional() }).strict().optional() }).strict(),
    output: z.object({ sessionId: Id, mode: z.enum(PERMISSION_MODE_NAMES).optional(), autoModeOff: z.boolean().optional(), worktree: WorktreeInfo.optional(), notes: z.array(z.string()).optional() }),
  },
  /** Sends a prompt; the reply arrives as `agent.event`s. Resolves when the turn is accepted. */
  'session.prompt': {
    /**
     * `images`: pasted or dropped pictures, sent as image blocks after the text (PNG, JPEG, GIF or
     * WebP, base64, at most 5 MB decoded each and 5 per prompt — the composer refuses more first).
     */
    input: z
      .object({
        sessionId: Id,
        text: z.string().min(1).max(1_000_000),
        images: z
          .array(z.object({ mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string().min(1).max(7_000_000).regex(/^[A-Za-z0-9+/]+=*$/) }).strict())
          .max(5)
          .optional(),
      })
      .strict(),
    output: z.void(),
  },
  /** Stops the running turn. */
  'session.abort': { input: z.object({ sessionId: Id }).strict(), output: z.void() },
  /**
   * Switches the model of a session's next requests (`/model`): an id or an alias (`sonnet`,
   * `opus`, `haiku`); without `model`, back to the default. Answers the model now in use.
   */
  'session.setModel': {
    input: z.object({ sessionId: Id, model: z.string().min(1).max(200).regex(/^[\w.:@/-]+$/).optional() }).strict(),
    output: z.object({ model: z.string() }),
  },
  /** Answers a running turn that reached its request guard (`turn_limit`): go on, or stop it. */
  'session.continueTurn': { input: z.object({ sessionId: Id, proceed: z.boolean() }).strict(), output: z.void() },
  /**
   * Answers a run paused by the budget guard or the loop brake (`session_pause`): `continue`,
   * `raise` (the cap that stopped it becomes `raiseTo`), `compact`, or `stop`.
   */
  'session.resumePause': {
    input: z.object({ sessionId: Id, pauseId: z.string().min(1).max(100), choice: PauseChoice, raiseTo: z.number().positive().finite().optional() }).strict(),
    output: z.void(),
  },
  /**
   * `/think`: thinking on or off for the session's next requests, and the effort level
   * (`output_config.effort`, sent to models that take it). Answers what is now in force.
   */
  'session.setReasoning': {
    input: z.object({ sessionId: Id, thinking: z.boolean().optional(), effort: EffortLevel.optional() }).strict(),
    output: z.object({ thinking: z.boolean(), effort: EffortLevel.optional() }),
  },
  /** Auto mode's decisions in a live session, oldest first: the decision log (an unknown session: NOT_FOUND). */
  'session.autoDecisions': { input: z.object({ sessionId: Id }).strict(), output: z.array(AutoDecisionEntry) },
  /**
   * "Ask me next time" for one auto-mode decision: its pattern asks the user in auto mode from now
   * on, for this session or (`project`) every session of the project. An unknown decision: INVALID_INPUT.
   */
  'session.askNextTime': { input: z.object({ sessionId: Id, decisionId: z.string().min(1).max(40), scope: z.enum(['session', 'project']) }).strict(), output: z.void() },
  /** Switches a session's permission mode (Shift+Tab in the UI); applies from the next tool call. */
  'session.setMode': { input: z.object({ sessionId: Id, mode: PermissionModeInput }).strict(), output: z.void() },
  /** Stored sessions, newest first: of one project, or of all when `projectPath` is omitted. */
  'session.list': { input: z.object({ projectPath: AbsPath.optional() }).strict(), output: z.array(SessionSummary) },
  /** Brings a stored session back so it can take prompts (a transcript cut mid-turn is repaired). */
  'session.resume': { input: z.object({ sessionId: Id }).strict(), output: SessionSummary },
  /** Resumes the most recent session of a project. */
  'session.continue': { input: z.object({ projectPath: AbsPath }).strict(), output: SessionSummary },
  /** A stored session's events (no deltas), to redraw it, and when each was recorded (ms since the epoch), to replay it. */
  'session.history': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ summary: SessionSummary, events: z.array(AgentEvent), times: z.array(z.number()).optional() }),
  },
  'session.rename': { input: z.object({ sessionId: Id, title: z.string().trim().min(1).max(200) }).strict(), output: z.void() },
  /** Stops the session if it runs and deletes its transcript. */
  'session.delete': { input: z.object({ sessionId: Id }).strict(), output: z.void() },
  /** Finds stored sessions whose prompts, replies or title contain `query` (case-insensitive). */
  'session.search': {
    input: z.object({ query: z.string().trim().min(1).max(500), projectPath: AbsPath.optional() }).strict(),
    output: z.array(SessionMatch),
  },
  /** A stored session as Markdown, for saving. */
  'session.export': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ fileName: z.string(), markdown: z.string() }),
  },
  /**
   * A stored session as one self-contained HTML page that replays it (the conversation, the diffs,
   * the Agent terminal's commands, the timeline with its subagent lanes), for saving.
   */
  'session.exportReplay': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ fileName: z.string(), html: z.string() }),
  },
  /** Files the agent changed in a session, each with its combined diff (first before → last after). */
  'session.changes': { input: z.object({ sessionId: Id }).strict(), output: z.array(FileChange) },
} as const

export const sessionEvents = {
  /** Everything an agent does. */
  'agent.event': AgentEvent,
} as const
