import type { SummarizeCall } from '../engine/tool-summary'
import type { ToolSearchPolicy } from '../engine/deferred-tools'
import type { ModelSwitch } from '../governance/gate/gate-hooks'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { AgentEvent, Usage } from '../../shared/protocol/agent-event'
import type { TaskItem } from '../../shared/protocol/task'
import type { EventHub } from '../base/event-hub'
import type { PromptImage } from './types'
import type { ReminderQueue } from '../context/reminders'
import type { CanUseTool, QueryHooks, QueryParams, QueryResult } from '../engine/types'
import type { SessionMemoryHost, SessionMemoryPort } from '../memory/agents/session-memory'
import type { Message, ModelService } from '../services/model/types'
import type { AnyTool, SkillFork } from '../tools/types'
import type { ReasoningPreference } from '../services/model/capabilities'
import type { LoopBrakeSettings } from './guard-settings'
import type { SessionContextSetup } from './session-context'
import type { SpendMeter } from './spend-meter'

/** The shapes a Session is built from: what its owner gives it, and what it starts from. */

/** What a session needs from its owner. */
export interface SessionEnvironment {
  hub: EventHub
  model: () => Promise<ModelService>
  modelName: string
  /** The tools of this session (created once, on the first turn; disposed with the session). */
  toolset: () => Promise<Toolset>
  canUseTool: CanUseTool
  maxTurns: number
  projectDataDir: string
  transcriptPath: string
  hooks?: QueryHooks
  /** Compaction thresholds, what a summary restores, PreCompact/PostCompact hooks, prompt sections. */
  context?: SessionContextSetup
  /** Where `~/.claude/CLAUDE.md` is looked up. */
  homeDir?: string
  /** Extra system prompt text. */
  appendSystemPrompt?: string
  /**
   * Assemble the system prompt as soon as the session is open (an interactive host: the first
   * prompt and the context view then find it ready) rather than on first use (`sous -p`, whose
   * first request follows at once). See {@link Session.whenPrepared}.
   */
  prepareOnOpen?: boolean
  /** Output limit of every request (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`); default each model's ceiling. */
  maxTokens?: number
  /** Which tools a request to this model defers behind ToolSearch (`ENABLE_TOOL_SEARCH`, `deferBuiltinTools`). */
  toolSearch?(modelName: string): ToolSearchPolicy
  /** Called with every message the session adds to its conversation. */
  onMessage?(message: Message): void
  /** Claude Code's `promptCacheTtl` from the settings now (the main conversation's requests). */
  promptCacheTtl?(): '5m' | '1h' | undefined
  /** Thinking and effort (settings, flags, `/think`), for the main agent and its subagents. */
  reasoning?: ReasoningPreference
  /** The budget guard and loop brake: the meter every request of the session goes through, and what was refused in the settings. */
  guard?: SessionGuardSetup
  /** The small model's summaries of long-running tool calls (engine/tool-summary.ts); absent: none. */
  toolSummaries?: { summarize: SummarizeCall; afterMs: number }
  /** Session-level hooks: UserPromptSubmit, SessionStart, SessionEnd (Claude Code's protocol). */
  lifecycle?: SessionLifecycle
  /**
   * Turns a typed prompt into what the model gets (`/name …` custom commands, skills, MCP prompts).
   * An `error` ends the turn before the model is asked. Must not throw.
   */
  expandPrompt?(text: string, toolset: Toolset, signal: AbortSignal): Promise<PromptExpansion>
  /** News for the model from any part of the session, drained into the next user message sent. */
  reminders?: ReminderQueue
  /** Memory around the turns (prompt section, recall, extraction), bound to this session. */
  memory?(host: SessionMemoryHost): SessionMemoryPort
  /**
   * Someone can answer when a turn reaches `maxTurns`: the turn waits for `answerTurnLimit`
   * instead of ending (the desktop's guard). Headless runs end at the limit.
   */
  askToContinue?: boolean
  /** The main agent's instructions in place of Sous's own (coordinator mode). */
  basePrompt?: string
  /** The session's subagents: the tree stops them; they end before the session's tools. */
  agents?: SessionAgentsPort
  /** Called once with the session itself, so what the owner built can reach it (its transcript, its turns). */
  attach?(session: SessionHandle): void
  /** The session's task list as it is now, for the tree (tasks live on disk, not in transcripts). */
  taskSnapshot?(): Promise<{ listId: string; tasks: TaskItem[] } | undefined>
}

/** What the session's guard is built from (see run-guard.ts). */
export interface SessionGuardSetup {
  meter: SpendMeter
  loopBrake: LoopBrakeSettings
  /** Settings values refused at load (`file:line:column: …`), said once, on the first turn. */
  problems: string[]
}

/** The session's subagents, as the session and the tree's handlers reach them (see agents/session-agents). */
export interface SessionAgentsPort {
  /** Stops a subagent or a background command of the tree, and what is below it; false when none such runs. */
  stopNode(nodeId: string): Promise<boolean>
  /** Stops every subagent. */
  stopAll(): Promise<void>
  /** Ids of the tree's nodes running now. */
  liveNodeIds(): Set<string>
  /** Whether any subagent is running. */
  readonly busy: boolean
  /** Stops everything and waits for it. */
  dispose(): Promise<void>
}

/** What a session offers the parts its owner built. */
export interface SessionHandle {
  /** An event of the main agent from outside its loop: on the hub and into the transcript. */
  emit(event: AgentEvent): void
  /** An event for the transcript only (a hook run, an answered approval: the live feed has its own channels for them). */
  record(event: AgentEvent): void
  /** Whether a turn is running. */
  readonly busy: boolean
  /** Starts a turn (a coordinator's workers report back as user messages). Throws CONFLICT while one runs. */
  /** `images` follow the text as image blocks of the user message. */
  runTurn(text: string, images?: readonly PromptImage[]): Promise<QueryResult>
  /** Resolves once no turn is running. */
  whenIdle(): Promise<void>
}

/** What a typed prompt became (see `SessionEnvironment.expandPrompt`). */
export type PromptExpansion =
  | { kind: 'none' }
  | { kind: 'expanded'; name: string; text: string; model?: string }
  /** `/name` of a skill with `context: fork`: run as a subagent with `prompt` (see forked-skill-turn.ts). */
  | { kind: 'fork'; name: string; args: string; prompt: string; fork: SkillFork }
  | { kind: 'error'; name: string; message: string }

/** Hooks around a session's life; each may add context for the model. None may throw. */
export interface SessionLifecycle {
  /** Before a prompt reaches the model: `blocked` drops the prompt, with the reason shown. */
  promptSubmit?(prompt: string): Promise<{ blocked?: string; additionalContext?: string; stopReason?: string }>
  /** Before the first turn of this session object: a new session, or a resumed one. */
  sessionStart?(source: 'startup' | 'resume'): Promise<{ additionalContext?: string }>
  /** When the session ends (closed, deleted, or the app quits). */
  sessionEnd?(reason: string): Promise<void>
  /** Before `/model` switches: `blocked` keeps the model (PreModelSwitch hooks). */
  preModelSwitch?(change: ModelSwitch): Promise<{ blocked?: string }>
  /** After it switched (PostModelSwitch hooks). */
  postModelSwitch?(change: ModelSwitch): Promise<void>
}

/** A session's tools and the capabilities they share (file-state cache, Bash state…). */
export interface Toolset {
  tools: AnyTool[]
  /** The tools as they are now, when they can change during a turn (MCP servers joining). */
  currentTools?: () => AnyTool[]
  context?: QueryParams['toolContext']
  dispose?(): Promise<void>
}

/** Saved state a session starts from (a resumed transcript). */
export interface SessionSeed {
  messages: Message[]
  usage: Usage
  costUsd: number
  /** The transcript file exists already. */
  persisted: boolean
  /** Compactions of the session so far (for the context view). */
  compactions?: CompactionRecord[]
  /** Turns the stored conversation shows, so new turn ids follow them (a rewind's marker finds its turn by id). */
  turns?: number
}
