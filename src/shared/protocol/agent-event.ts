import { z } from 'zod'
import { PERMISSION_MODE_NAMES } from '../permission-modes'
import { CompactionLayer, CompactionRecord, CompactionTrigger } from './compaction'
import { eventBase } from './event-base'
import { ApprovalAnsweredEvent, HookRunEvent } from './recorded-events'
import { TaskItem } from './task'

/**
 * The one stream the engine emits and the UI reduces. Every member carries `sessionId` and
 * `agentId`; subagent events also carry `parentToolUseId`. Wire names are snake_case.
 * Extend it additively: the renderer's stores and the transcripts depend on these shapes.
 * Longer than 300 lines because it is the one union of every event, one small schema each: split,
 * the union would be read across files.
 */

const base = eventBase

/** Why a turn ended. */
export const TerminalReason = z.enum([
  'completed',
  'aborted',
  'max_turns',
  'max_tokens',
  'prompt_too_long',
  'model_error',
  'hook_stopped',
  /** A `/name` command could not be expanded (an injected command failed or was not allowed). */
  'command_failed',
  /** A spending cap (dollars or tokens, session or project) was reached or the next request would cross it. */
  'budget_exceeded',
  /** The loop brake saw the agent repeat itself (the same call N times, or K requests with nothing new). */
  'loop_detected',
])
export type TerminalReason = z.infer<typeof TerminalReason>

/**
 * Where a tool call is in its life. Waiting for the user is not a state of the call: the approval
 * events (`approval.requested` / `approval.resolved`, and `approval.list` after a reconnect) say
 * which call waits, and the renderer's pending approvals (`state/approvals.ts`) are the one place
 * that knows it.
 */
export const ToolState = z.enum(['pending', 'running', 'done', 'error'])
export type ToolState = z.infer<typeof ToolState>

/** Token usage of one request or of a whole session. */
export const Usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
})
export type Usage = z.infer<typeof Usage>

/** A memory named in an event (recalled, written). */
export const MemoryMention = z.object({ scope: z.enum(['user', 'project']), file: z.string(), name: z.string(), path: z.string() })
export type MemoryMention = z.infer<typeof MemoryMention>
/** How a subagent's run ended: it finished, it failed (an API error, the turn limit…), or it was stopped. */
export const AgentEndStatus = z.enum(['completed', 'failed', 'stopped'])
export type AgentEndStatus = z.infer<typeof AgentEndStatus>

/** One spending cap and what has been spent against it. */
export const BudgetLine = z.object({
  /** `sessionUsd`, `projectUsd`, `sessionTokens`, `projectTokens` (the settings keys under `budget`). */
  key: z.enum(['sessionUsd', 'projectUsd', 'sessionTokens', 'projectTokens']),
  spent: z.number(),
  cap: z.number(),
})
export type BudgetLine = z.infer<typeof BudgetLine>

/** Why a session paused, and what the user may answer. */
export const PauseReason = z.enum(['budget', 'loop'])
export type PauseReason = z.infer<typeof PauseReason>
export const PauseChoice = z.enum(['continue', 'raise', 'compact', 'stop'])
export type PauseChoice = z.infer<typeof PauseChoice>

export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('turn_start'), turnId: z.string(), prompt: z.string() }),
  z.object({ ...base, type: z.literal('request_start'), model: z.string(), attempt: z.number() }),
  z.object({ ...base, type: z.literal('text_delta'), text: z.string() }),
  z.object({ ...base, type: z.literal('thinking_delta'), text: z.string() }),
  z.object({ ...base, type: z.literal('tool_use_start'), toolUseId: z.string(), name: z.string() }),
  z.object({
    ...base,
    type: z.literal('tool_state'),
    toolUseId: z.string(),
    name: z.string(),
    state: ToolState,
    input: z.unknown().optional(),
    summary: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('tool_progress'), toolUseId: z.string(), text: z.string() }),
  /** The small model's short line on what a long-running call is doing (only while it runs; never kept). */
  z.object({ ...base, type: z.literal('tool_summary'), toolUseId: z.string(), summary: z.string() }),
  z.object({
    ...base,
    type: z.literal('tool_end'),
    toolUseId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    /** What the model was given, as text (a preview where the result was large). */
    content: z.string(),
    /** Tool-specific data for the UI (a diff, an exit code…). */
    details: z.unknown().optional(),
    /**
     * The call was cut because its turn was interrupted — the user's stop, a dropped connection
     * whose host ended, a crash found on resume — not because the tool failed (its card says "Interrupted").
     */
    interrupted: z.literal(true).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('assistant_message'),
    text: z.string(),
    stopReason: z.string().nullable(),
    /** The reply's thinking text (its thinking blocks joined), when it had any: a stored history keeps no deltas, so a replay shows it from here. */
    thinking: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('usage'),
    model: z.string(),
    request: Usage,
    /** Session totals so far. */
    total: Usage,
    /** Cost of the session so far, in USD (matches `total`). */
    costUsd: z.number(),
    /** Cost of this request alone. */
    requestCostUsd: z.number().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('model_retry'),
    attempt: z.number(),
    reason: z.string(),
    delayMs: z.number(),
  }),
  z.object({ ...base, type: z.literal('model_fallback'), from: z.string(), to: z.string(), reason: z.string() }),
  /** A scheduled prompt (CronCreate) fired: its `[Scheduled] …` turn follows. */
  z.object({ ...base, type: z.literal('scheduled_fire'), jobId: z.string(), cron: z.string(), prompt: z.string(), at: z.number() }),
  /** A durable scheduled prompt missed these runs while the app was closed: listed, not replayed. */
  z.object({ ...base, type: z.literal('scheduled_missed'), jobId: z.string(), cron: z.string(), prompt: z.string(), runs: z.array(z.number()) }),
  /**
   * A message from another session of this machine (ListAgents / SendMessage across sessions):
   * `held` waits for the user in the attention inbox; `released`, `dropped` or `refused` settle it;
   * `delivered` went straight to the model. `from` is the sender's label (never an instruction).
   */
  z.object({ ...base, type: z.literal('peer_message'), messageId: z.string(), from: z.string(), fromSessionId: z.string(), status: z.enum(['delivered', 'held', 'released', 'dropped', 'refused']), text: z.string(), at: z.number() }),
  z.object({
    ...base,
    type: z.literal('notice'),
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
    /**
     * What the notice is about, when headless output must say it too (`budget`: a cap's warning or
     * a refused guard setting; `storage`: a transcript the disk would not take, or took again).
     */
    topic: z.enum(['budget', 'storage']).optional(),
  }),
  /**
   * Memories recall picked for a turn's prompt: `attached` when they went with one of the turn's
   * requests, false when the pick arrived after the turn's last request (then they were not sent).
   */
  z.object({ ...base, type: z.literal('memory_recall'), turnId: z.string(), memories: z.array(MemoryMention), attached: z.boolean(), model: z.string() }),
  /** A memory the extraction agent wrote (undoable with `changeId`) or proposed, after the turn `turnId`. */
  z.object({
    ...base,
    type: z.literal('memory_write'),
    turnId: z.string(),
    memory: MemoryMention,
    memoryType: z.string(),
    change: z.enum(['created', 'updated', 'proposed']),
    changeId: z.string().optional(),
  }),
  /**
   * Bash found the OS sandbox unavailable (once per session): with `unconfined`
   * (bypassPermissions) commands run without it; otherwise commands that change things ask.
   */
  z.object({ ...base, type: z.literal('sandbox_unavailable'), reason: z.string(), unconfined: z.boolean() }),
  /** The turn made `turns` model requests, its guard: the agent waits until the user says go on or stop. */
  z.object({ ...base, type: z.literal('turn_limit'), turns: z.number() }),
  /**
   * The session's task list changed: `tasks` are the tasks as they are now (each one whose file was
   * written), `deleted` the ids removed. `actor` is the owner name of the agent that changed them.
   */
  z.object({
    ...base,
    type: z.literal('task_update'),
    /** The task list's name (the session id unless the list is shared by name). */
    listId: z.string(),
    tasks: z.array(TaskItem),
    deleted: z.array(z.string()),
    actor: z.string(),
  }),
  /** The session's permission mode changed on the main side (plan mode entered or left). */
  z.object({
    ...base,
    type: z.literal('mode_change'),
    mode: z.enum(PERMISSION_MODE_NAMES),
    previous: z.enum(PERMISSION_MODE_NAMES),
  }),
  /**
   * Auto mode's classifier judged a tool call no rule decided: `allow` ran it, `ask` sent it on to
   * the user (or, unattended, refused it). The tool card shows the reason; `decisionId` names the
   * entry in the session's decision log (`approval.autoDecisions`), `pattern` what "ask me next
   * time" would save.
   */
  z.object({
    ...base,
    type: z.literal('auto_decision'),
    toolUseId: z.string(),
    toolName: z.string(),
    decisionId: z.string(),
    decision: z.enum(['allow', 'ask']),
    reason: z.string(),
    pattern: z.string(),
    durationMs: z.number(),
    model: z.string(),
  }),
  /**
   * A subagent started (or, sent a message after it ended, started again): `agentId` is the
   * subagent, `parentToolUseId` the Agent call that started it, `parentAgentId` the agent that
   * made that call. `at` is the wall-clock time in ms since the epoch.
   */
  z.object({
    ...base,
    type: z.literal('agent_start'),
    parentAgentId: z.string(),
    /** `general-purpose`, `Explore`, `Plan`, a custom agent's name, or `fork`. */
    agentType: z.string(),
    /** The 3–5 word description the model gave. */
    description: z.string(),
    prompt: z.string(),
    model: z.string(),
    background: z.boolean(),
    /** A teammate (agent teams): its team, its name there and its colour. */
    team: z.object({ name: z.string(), member: z.string(), color: z.string() }).optional(),
    at: z.number(),
  }),
  /**
   * A message between members of an agent team went into a mailbox: who sent it to whom (member
   * names; `team-lead` is the session's main agent), its kind (`message`, `idle_notification`,
   * `permission_request`…), a one-line summary and the text (cut for the event). `error` when it
   * could not be delivered (the recipient does not exist).
   */
  z.object({
    ...base,
    type: z.literal('team_message'),
    team: z.string(),
    from: z.string(),
    to: z.string(),
    kind: z.string(),
    summary: z.string(),
    text: z.string(),
    at: z.number(),
  }),
  /** A foreground subagent moved to the background (it ran past the limit); the parent went on. */
  z.object({ ...base, type: z.literal('agent_background'), at: z.number() }),
  /** A subagent's run ended; `result` is the final text its parent got (cut for the event). */
  z.object({
    ...base,
    type: z.literal('agent_end'),
    status: AgentEndStatus,
    message: z.string().optional(),
    result: z.string(),
    usage: Usage,
    costUsd: z.number(),
    durationMs: z.number(),
    turns: z.number(),
    at: z.number(),
  }),
  /** The agent started a background command (Bash `run_in_background`). */
  z.object({ ...base, type: z.literal('shell_start'), shellId: z.string(), command: z.string(), at: z.number() }),
  /** A background command ended. */
  z.object({
    ...base,
    type: z.literal('shell_end'),
    shellId: z.string(),
    status: z.enum(['completed', 'failed', 'killed']),
    exitCode: z.number().nullable().optional(),
    at: z.number(),
  }),
  /**
   * The session's spend against its caps, before every request and after every reply:
   * `spentUsd`/`spentTokens` of the session (subagents and side requests included), each cap with
   * what was spent against it (`lines`), `forecastUsd`/`forecastTokens` of the next request
   * (expected), and `level`: `warning` once spend plus forecast reaches 80 % of a cap, `exceeded` past it.
   */
  z.object({
    ...base,
    type: z.literal('budget_status'),
    spentUsd: z.number(),
    spentTokens: z.number(),
    forecastUsd: z.number(),
    forecastTokens: z.number(),
    lines: z.array(BudgetLine),
    level: z.enum(['ok', 'warning', 'exceeded']),
  }),
  /**
   * The session paused before a request: `reason` says why (a cap the next request would cross, or
   * the agent repeating itself) and `choices` what the user may answer (`session.resumePause`).
   */
  z.object({ ...base, type: z.literal('session_pause'), pauseId: z.string(), reason: PauseReason, message: z.string(), choices: z.array(PauseChoice) }),
  /** A pause was answered (or ended with the turn). */
  z.object({ ...base, type: z.literal('session_resume'), pauseId: z.string(), choice: PauseChoice }),
  /** A summarizing compaction started (it waits for the model); a `compaction` event follows. */
  z.object({ ...base, type: z.literal('compaction_start'), layer: CompactionLayer, trigger: CompactionTrigger, tokensBefore: z.number() }),
  /** A compaction ended (see CompactionRecord). */
  z.object({ ...base, type: z.literal('compaction'), ...CompactionRecord.shape }),
  /** Before each request: its estimated size against the window and the auto-compaction threshold. */
  z.object({ ...base, type: z.literal('context_status'), tokens: z.number(), window: z.number(), autoCompactAt: z.number() }),
  z.object({
    ...base,
    type: z.literal('turn_end'),
    reason: TerminalReason,
    /** A one-line explanation for anything but `completed`. */
    message: z.string().optional(),
  }),
  // Recorded in transcripts only (see recorded-events.ts).
  HookRunEvent,
  ApprovalAnsweredEvent,
])
export type AgentEvent = z.infer<typeof AgentEvent>
