import type { SummarizeCall } from './tool-summary'
import type { AgentEvent, TerminalReason, Usage } from '../../shared/protocol/agent-event'
import type { CompactionNews, Prepared, RequestShape } from '../compaction/types'
import type { ReminderQueue } from '../context/reminders'
import type { ReasoningPreference } from '../services/model/capabilities'
import type { Message, ModelService, TextBlock } from '../services/model/types'
import type { RequestGuard } from './guard'
import type { AnyTool, ToolContext, ToolResult } from '../tools/types'
import type { ToolSearchPolicy } from './deferred-tools'

/**
 * The permission for one tool call, as `canUseTool` answers it: allow or deny, never "ask" (the
 * asking happened inside; governance's own `PermissionDecision` is the pipeline's answer, which may
 * be "ask"). Governance plugs in here; the engine only obeys. `updatedInput` replaces the model's
 * input (e.g. a path the user corrected).
 */
export type ToolPermission =
  | {
      behavior: 'allow'
      updatedInput?: unknown
      /**
       * Run another tool of the session instead, with `updatedInput` (which is then required): an Edit
       * the user reworked in the diff view becomes a `Write` of exactly the approved content.
       */
      runAs?: string
      /** Appended to a successful tool_result, so the model learns what the user changed. */
      userNote?: string
    }
  | {
      behavior: 'deny'
      message: string
      /** Also end the turn after this call's result (a hook answered `continue: false`), for this reason. */
      stopTurn?: string
      /** The user said no (not a rule or a hook): the result's details say `{ rejected: true }`. */
      rejectedByUser?: true
    }

/**
 * Asked once per tool call, after the input parsed and before it runs. May wait for a person;
 * `signal` aborts with the turn, and a pending question must then settle as a denial.
 */
export type CanUseTool = (tool: AnyTool, input: unknown, toolUseId: string, opts?: { signal?: AbortSignal }) => Promise<ToolPermission>

/** One tool call as hooks see it. */
export interface ToolCallInfo {
  tool: AnyTool
  input: unknown
  toolUseId: string
}

/** What the hooks after a call say: news for the model, or an end to the turn. */
export interface AfterCallOutcome {
  /** Text for the model, delivered as a reminder with the next request (exit-2 stderr, `additionalContext`, a block reason). */
  additionalContext?: string
  /** End the turn once this call's result is in (`continue: false`), for this reason. */
  stopReason?: string
}

/**
 * Optional callbacks around the loop. PreToolUse hooks are not here: governance runs them inside
 * `canUseTool`, so a hook's input is re-validated and judged by the rules. None of these may
 * throw; a throw is reported as a warning notice and the loop goes on.
 */
export interface QueryHooks {
  /** A Stop hook: a `blockReason` forces one more round (never twice in a row). */
  onStop?: (info: { lastAssistantMessage: string }) => Promise<{ blockReason?: string }>
  /** After a call ran (also when it failed). */
  postToolUse?: (call: ToolCallInfo, result: ToolResult) => Promise<AfterCallOutcome | void>
  /**
   * Whether `postToolUse` will run a configured hook (which may change files). Then the tree a
   * call left is recorded before the hook runs; otherwise off the critical path. Default: true.
   */
  runsPostToolUseHooks?: () => boolean
}

/**
 * The session's context management (see compaction/manager.ts), as the loop uses it: before each
 * request it may rewrite the conversation and says what to send; after each reply it learns the
 * request's real size; when the API still says the prompt is too long it shrinks harder.
 */
export interface ContextControl {
  prepare(messages: Message[], request: RequestShape): AsyncGenerator<CompactionNews, Prepared>
  /** `undefined`: nothing smaller could be made. */
  overflow(messages: Message[], request: RequestShape): AsyncGenerator<CompactionNews, Prepared | undefined>
  /** The reply to a request that sent `sent` (the first `sentLength` messages of the conversation) arrived. */
  observe(usage: Usage, sentLength: number, sent: readonly Message[]): void
}

/** Everything one run of the loop needs. */
export interface QueryParams {
  /** The conversation so far, ending with the user's new prompt. Not mutated. */
  messages: Message[]
  /** System blocks from `src/main/context` (their cache breakpoints already placed). */
  system: TextBlock[]
  tools: AnyTool[]
  /**
   * The tools as they are now, read before every model request (tools that join or change while
   * the run goes on). Return the same array while nothing changed. Default: `tools`, fixed.
   */
  currentTools?: () => AnyTool[]
  /** Which tools are deferred behind ToolSearch (see deferred-tools.ts); absent: none. */
  toolSearch?: ToolSearchPolicy
  model: ModelService
  modelName: string
  /** Model requests allowed in this run (retries of one request do not count); `Infinity` for no limit. */
  maxTurns: number
  /**
   * Asked when the run reaches `maxTurns` (after a `turn_limit` event): true goes on for another
   * `maxTurns` requests. Without it, or on false, the run ends with `max_turns`. Must settle (as
   * false is fine) when the turn is aborted.
   */
  onTurnLimit?: (turns: number) => Promise<boolean>
  signal: AbortSignal
  sessionId: string
  agentId: string
  parentToolUseId?: string
  /** Working directory and data folders handed to tools. */
  cwd: string
  projectRoot: string
  projectDataDir: string
  canUseTool: CanUseTool
  hooks?: QueryHooks
  /** Compaction; without it the conversation is sent as it is and an overflow ends the run. */
  context?: ContextControl
  /** Called synchronously for every message the loop appends (persist it here). */
  onMessage?: (message: Message) => void
  /**
   * Output limit of every request; default the model's own ceiling (services/model/capabilities.ts),
   * so a long reply is never cut and generated again. `CLAUDE_CODE_MAX_OUTPUT_TOKENS` arrives here.
   */
  maxTokens?: number
  /**
   * Claude Code's `promptCacheTtl`, read before every request: `1h` gives the request's cache
   * breakpoints (system and messages) the one-hour lifetime; `5m` or undefined leaves the default.
   */
  promptCacheTtl?: () => '5m' | '1h' | undefined
  /** Thinking and effort as the user wants them; each request sends what its model supports. */
  reasoning?: ReasoningPreference
  /**
   * Asked before every request (re-issues included) and told of every reply: the budget guard
   * and the loop brake (see engine/guard.ts). A verdict other than `go` ends the run with its reason.
   */
  guard?: RequestGuard
  /** Session capabilities for tools (file-state cache, Bash state, PTY hook, small model). */
  toolContext?: Partial<Omit<ToolContext, 'cwd' | 'projectRoot' | 'projectDataDir' | 'sessionId' | 'agentId' | 'toolUseId' | 'signal' | 'progress'>>
  /** The small model's summaries of tool calls that run long (engine/tool-summary.ts); absent: none are made. */
  toolSummaries?: { summarize: SummarizeCall; afterMs: number }
  /** The user's output-token target for the turn ("+500k"): a turn that would stop well under it goes on (transitions/token-budget.ts). */
  tokenBudget?: number
  /** Usage of the session before this run, so `usage` events carry session totals. */
  usageSoFar?: { usage: Usage; costUsd: number }
  /** Base delay before re-issuing a request whose stream broke (default 250 ms, doubling). */
  streamRetryDelayMs?: number
  /**
   * The session's reminder queue: drained into every user message the loop appends (tool
   * results, Stop-hook feedback, continuation nudges), the message the next request sends. Without
   * one the run keeps its own, so hook context still reaches the model.
   */
  reminders?: ReminderQueue
}

/** What `query` returns when its generator finishes (its caller then closes the turn with `turn_end`). */
export interface QueryResult {
  reason: TerminalReason
  message?: string
  /** The whole conversation after this run. */
  messages: Message[]
  /** Model requests made (not counting re-issues). */
  turns: number
  usage: Usage
  costUsd: number
  /** Text of the last assistant message, for headless output. */
  resultText: string
}

/** An AgentEvent without the identity fields the loop fills in. */
export type EventBody = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'sessionId' | 'agentId' | 'parentToolUseId'>
    : never
  : never
