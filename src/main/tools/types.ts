import type { z } from 'zod'
import type { PtyProcess } from '../pty/types'
import type { McpServers } from '../services/mcp'
import type { AssistantBlock, ImageBlock, Message, TextBlock, ToolReferenceBlock, ToolSchema } from '../services/model/types'
import type { EffortLevel, ThinkingConfig } from '../services/model/capabilities'
import type { TaskStore } from '../store/tasks/task-store'
import type { ListedJob, NewJob } from '../store/schedule/scheduler'
import type { FileStateCache } from './file-state'
import type { CallCheckpoints } from './checkpoint-types'
import type { UserChannels, UserQuestion } from './question-types'
import type { ShellState } from './shell/shell-state'
import type { PlanModeControl } from './plan-types'

/**
 * The contract between the engine and every tool. The engine knows no tool by name; governance
 * decides before `execute` runs. Tools get their capabilities through {@link ToolContext} and never
 * import the engine. Longer than 300 lines because it is that one contract: the controls tools reach
 * (subagents, teams, worktrees, plan mode, schedules) are read together with the context that carries them.
 */

export type { CallCheckpoints, CheckpointedCall } from './checkpoint-types'
export type { PlanModeControl, PlanOutcome } from './plan-types'

/** What a tool hands back: `content` for the model, `details` for the UI. */
export interface ToolResult {
  content: string | Array<TextBlock | ImageBlock | ToolReferenceBlock>
  details?: unknown
  isError?: boolean
  /** The call was the agent's final output (StructuredOutput): the turn ends once every result is in, with no further request. */
  endsTurn?: boolean
}

/** What the approval UI shows before a call runs. */
export type ToolPreview =
  | {
      kind: 'diff'
      filePath: string
      before: string
      after: string
      /** Where the file really is, when a symlink on the way leads elsewhere (set by governance). */
      realPath?: string
    }
  | {
      kind: 'command'
      command: string
      description?: string
      /** The simple commands it runs, in order (substitutions and `bash -c` included). */
      commands?: string[]
      /** Files it reads or writes, as far as the syntax shows (`realPath`: where a symlink really takes it). */
      paths?: Array<{ path: string; write: boolean; inside: boolean; realPath?: string }>
      /** Some write lands outside the project (or where, cannot be known). */
      writesOutside?: boolean
      /** Whether it would run inside the sandbox. */
      sandboxed?: boolean
      /** Why it would not (sandbox unavailable, or dangerouslyDisableSandbox). */
      sandboxNote?: string
      /** Why it cannot be auto-approved (substitution, eval, syntax error…). */
      problems?: string[]
    }
  | { kind: 'text'; text: string }
  /** A plan to approve (ExitPlanMode): the Markdown, editable before approving, and where it is saved. */
  | { kind: 'plan'; plan: string; filePath?: string }
  | { kind: 'questions'; questions: UserQuestion[] }

export interface ToolContext extends UserChannels {
  /** Working directory for relative paths (the Bash tool keeps its own, persisted, cwd). */
  cwd: string
  /** The project folder. */
  projectRoot: string
  /** `$SOUS_HOME/projects/<slug>`: transcripts, tool results, memory. */
  projectDataDir: string
  sessionId: string
  agentId: string
  toolUseId: string
  /** Aborted when the user stops the turn or the session ends. */
  signal: AbortSignal
  /** Streams a line of progress to the UI while the tool runs. */
  progress(text: string): void
  /**
   * What this session has read (path → mtime, size, hash). Edit and Write refuse to change an
   * existing file that is missing here or changed on disk since; without a cache they refuse
   * every existing file (fail closed). One per session: see `createToolSession`.
   */
  fileState?: FileStateCache
  /** The Bash tool's per-session state: persisted cwd and background shells. */
  shell?: ShellState
  /**
   * Called when the Bash tool starts a command on a PTY, so the desktop can show it live in the
   * "Agent" terminal (and the user can type into it when a command waits for input).
   */
  onPtySpawn?(proc: PtyProcess, command: string): void
  /**
   * `bashOutputMaxChars` from the settings now (Claude Code 2.1.328): how much of a command's output
   * the model gets inline; undefined for the default.
   */
  bashOutputMaxChars?(): number | undefined
  /** Asks a small, fast model (WebFetch uses it to answer a prompt over a page). */
  askModel?(system: string, user: string, signal: AbortSignal): Promise<string>
  /** The session's MCP servers (ListMcpResourcesTool, ReadMcpResourceTool, WaitForMcpServers). */
  mcp?: McpServers
  /** Loads skills for the Skill tool. */
  skills?: SkillLoader
  /**
   * True when the permission rules keep this file from being read (a Read deny or ask rule, by
   * the path as written or where it really leads). Searches (Grep, Glob) leave such files out of
   * what they return; without it they return everything they find.
   */
  isReadDenied?(absolutePath: string): boolean
  /** The session's checkpoints, shared with its subagents (off when `fileCheckpointingEnabled` is false). */
  checkpoints?: CallCheckpoints
  /** The session's task list (shared with its subagents; see store/tasks). */
  tasks?: TaskListAccess
  /** The session's scheduled prompts (CronCreate, CronList, CronDelete); absent for subagents and `sous -p`. */
  schedule?: ScheduleAccess
  /** Plan mode: entering it and proposing a plan both go through the user (see agents/plan-mode). */
  planMode?: PlanModeControl
  /**
   * The request this call came from and the whole reply that made it, once that reply is complete
   * (undefined when it was cut off or voided). A fork starts from it (see agents/fork).
   */
  origin?(): Promise<CallOrigin | undefined>
  /** EnterWorktree / ExitWorktree: the main agent's way into and out of a git worktree (absent for subagents). */
  worktree?: WorktreeControl
  /** Subagents: what the Agent and SendMessage tools run, and TaskOutput/TaskStop on agents (see agents/). */
  agents?: SubagentControl
  /** The session's agent team (TeamCreate, TeamDelete, teammates spawned by Agent, SendMessage between members; see agents/team). */
  team?: TeamControl
  /** The other sessions of this machine (ListAgents, SendMessage across sessions; see runtime/peers.ts). */
  peers?: PeerControl
  /** Asks for the conversation to be summarized before the next request (the Compact tool); absent where nothing compacts. */
  requestCompaction?(instructions?: string): void
  /**
   * The model for the rest of this run (an inline skill's `model`: Claude Code applies it for the
   * rest of the turn, and the session's model resumes at the next prompt). Absent outside a loop.
   */
  useModel?(model: string): void
}

/** A model request and the reply it got, as a fork copies them byte for byte. */
export interface CallOrigin {
  system: TextBlock[]
  tools: ToolSchema[]
  /** The conversation as the request sent it, without cache breakpoints. */
  messages: Message[]
  /** Every block of the assistant message that holds the call. */
  reply: AssistantBlock[]
  model: string
  maxTokens: number
  thinking?: ThinkingConfig
  effort?: EffortLevel
  /** Prompt tokens the API counted for that request (input, cache reads and writes), when it said. */
  promptTokens?: number
}

/** An Agent call's input (Claude Code's schema). */
export interface AgentCall {
  description: string
  prompt: string
  subagent_type?: string
  /** The Agent tool's aliases (`sonnet`, `opus`, `haiku`), or a model id (a forked skill's `model`). */
  model?: string
  /** `output_config.effort` for the agent's requests (Claude Code's Agent `effort`); ignored for a fork. */
  effort?: EffortLevel
  run_in_background?: boolean
  /** A name for the agent: with a team, it joins it as a teammate under this name. */
  name?: string
  /** The team it joins (the session's one team; Claude Code 2.1.328 ignores it). */
  team_name?: string
  /** `"worktree"`: the agent works in a git worktree of its own (Claude Code's `isolation`). */
  isolation?: 'worktree' | 'remote'
}

/** A structured message SendMessage carries (Claude Code's): a shutdown handshake, a plan verdict. */
export type TeamStructuredMessage =
  | { type: 'shutdown_request'; reason?: string | undefined }
  | { type: 'shutdown_response'; request_id: string; approve: boolean; reason?: string | undefined }
  | { type: 'plan_approval_response'; request_id: string; approve: boolean; feedback?: string | undefined }

/** The session's agent team as tools reach it. Contract: none of these throws; failures are error results. */
export interface TeamControl {
  /** TeamCreate: the session's main agent leads a new team (one at a time). */
  create(input: { team_name: string; description?: string | undefined; agent_type?: string | undefined }, ctx: ToolContext): Promise<ToolResult>
  /** TeamDelete: removes the team's folder once no member is active. */
  delete(ctx: ToolContext): Promise<ToolResult>
  /** Whether an Agent call makes a teammate (a team exists and the call names the agent). */
  spawns(call: AgentCall): boolean
  /** Agent with a `name` while a team exists: a teammate joins and starts. */
  spawn(call: AgentCall, ctx: ToolContext): Promise<ToolResult>
  /**
   * SendMessage between members: into the recipient's mailbox. Undefined when it is not a team
   * message (no team, or the sender or recipient is a plain subagent): the agents' own route then.
   */
  send(to: string, message: string | TeamStructuredMessage, summary: string | undefined, ctx: ToolContext): Promise<ToolResult | undefined>
  /** The team's name, when there is one. */
  readonly name?: string | undefined
  /** The teammates' names (the lead not among them), for ListAgents. */
  members?(): string[]
}

/** Another session of this machine as ListAgents shows it. */
export interface PeerRow {
  /** A label the session chose: the address, never an instruction. */
  name: string
  ref: string
  state: 'busy' | 'idle'
  projectPath: string
  mode?: string
}

/** The sessions of this machine as tools reach them. Contract: none of these throws; failures are error results. */
export interface PeerControl {
  /** This session's own address, and the other live sessions. */
  list(): Promise<{ self: { name: string; ref: string }; peers: PeerRow[] }>
  /**
   * SendMessage to another session (`text` undefined: a pure idle subscription). Undefined when
   * `to` names no session, so the caller tries its other routes.
   */
  send(to: string, text: string | undefined, notifyWhenIdle: boolean): Promise<ToolResult | undefined>
}

/** What EnterWorktree and ExitWorktree reach (runtime/worktree-tools.ts). Contract: never throws; failures are error results. */
export interface WorktreeControl {
  enter(input: { name?: string; path?: string }): Promise<ToolResult>
  exit(input: { action: 'keep' | 'remove'; discard_changes?: boolean }): Promise<ToolResult>
}

/** The session's subagents as tools reach them. Contract: none of these throws; failures are error results. */
export interface SubagentControl {
  /**
   * Runs an Agent call: the subagent's final text (foreground) or, for a background run, its id at
   * once. `grants` are allow rules the subagent alone holds (a forked skill's `allowed-tools`).
   */
  run(call: AgentCall, ctx: ToolContext, options?: { grants?: SubagentGrants }): Promise<ToolResult>
  /** Queues a message for a running agent (read at its next turn boundary), or starts a finished one again with it. */
  send(to: string, message: string, ctx: ToolContext): Promise<ToolResult>
  /** TaskOutput on an agent; undefined when `id` names no agent of this session. */
  output(id: string, options: { block: boolean; timeoutMs: number; signal: AbortSignal }): Promise<ToolResult | undefined>
  /** TaskStop on an agent (and the agents it started); undefined when `id` names no agent of this session. */
  stop(id: string): Promise<ToolResult | undefined>
}

/**
 * What the Skill tool asks the session for: the skill's rendered body, with its folder made readable
 * and its `allowed-tools` granted for the turn; or why it cannot be loaded.
 */
export interface SkillLoader {
  load(name: string, args: string, signal: AbortSignal): Promise<LoadedSkill | { ok: false; error: string }>
}

/** A skill ready to use: its rendered body, and whether it runs as a subagent (`context: fork`). */
export interface LoadedSkill {
  ok: true
  name: string
  file: string
  text: string
  alreadyLoaded: boolean
  /** `context: fork`: the body is the prompt of a subagent, whose final text is the result. */
  fork?: SkillFork
  /** An inline skill's `model` (aliases resolved): the model for the rest of the run that loaded it. */
  model?: string
}

/**
 * How a skill with `context: fork` runs (Claude Code's documented behaviour): a subagent of the
 * skill's `agent` type (general-purpose when absent) with a conversation of its own — none of the
 * caller's — whose prompt is the rendered body. Only its final text comes back.
 */
export interface SkillFork {
  /** The subagent type; absent means general-purpose. */
  agent?: string
  /** The subagent's model (the template's `model`, aliases resolved); absent: the type's, else the caller's. */
  model?: string
  /** Allow rules for the subagent while it runs: the skill's folder, and its `allowed-tools` when its source is trusted. */
  grants: SubagentGrants
}

/** Allow rules one subagent holds for its life, and the file they come from (named in its decisions). */
export interface SubagentGrants {
  rules: string[]
  file: string
}

/** A session's task list as tools reach it. */
export interface TaskListAccess {
  store: TaskStore
  /** The list's name: the session id, or the name a team shares. */
  listId: string
  /** How an agent is named as a task owner (main agents of sessions sharing a list get distinct names). */
  ownerOf(agentId: string): string
}

/**
 * What a tool's own permission check answers. `allow` and `ask` give the reason people see;
 * `deny` the message the model gets; `passthrough` means "no opinion: the general rules decide".
 * An allow rule, bypass mode or a hook's allow still outranks the tool's `ask`; its `deny` is final.
 */
export type ToolPermissionResult =
  | { behavior: 'allow'; reason: string }
  | { behavior: 'deny'; message: string }
  | { behavior: 'ask'; reason: string }
  | { behavior: 'passthrough' }

/** What a tool's permission check may look at besides its input. */
export interface ToolPermissionFacts {
  cwd: string
  projectRoot: string
  /** The mode the call is judged in. */
  mode: string
}

/** A tool as the engine sees it, after `defineTool`. */
export interface Tool<Input = unknown> {
  /** Model-facing name, as in Claude Code (`Read`, `Edit`, `Bash`). */
  readonly name: string
  /** Short human label for the UI. */
  readonly label: string
  /** Model-facing description (long text lives in a `*.prompt.md` beside the tool). */
  readonly description: string
  readonly inputSchema: z.ZodType<Input>
  /** JSON Schema for the API, derived once from `inputSchema`. */
  readonly jsonSchema: Record<string, unknown>
  isReadOnly(input: Input): boolean
  isDestructive(input: Input): boolean
  isConcurrencySafe(input: Input): boolean
  /**
   * Changes nothing outside Sous's own records (the task list, the plan-mode state, its own
   * background shells). Governance lets such a call through in every mode, plan mode included,
   * without asking; deny and ask rules and hooks still apply.
   */
  isBookkeeping(input: Input): boolean
  /** One line for the tool card ("Read src/app.ts"). */
  summarize(input: Input): string
  /** What approval shows (a diff, a parsed command). */
  preview?(input: Input, ctx: ToolContext): Promise<ToolPreview | undefined>
  /** Semantic checks after the schema; a string is an instructive error for the model. */
  validate?(input: Input, ctx: ToolContext): Promise<string | undefined>
  /**
   * The tool's own permission check (Claude Code's `checkPermissions`), asked after the deny and
   * ask rules: `passthrough` (also what a tool without one gives) defers to the general rules.
   * Absent or passthrough is the usual answer; see governance/decide.
   */
  checkPermissions?(input: Input, facts: ToolPermissionFacts): ToolPermissionResult
  execute(input: Input, ctx: ToolContext): Promise<ToolResult>
  /**
   * Results longer than this are persisted to disk and replaced by a preview (see
   * result-budget.ts). `Infinity` exempts the tool (Read: persisting a read would loop).
   */
  readonly maxResultChars?: number
  /**
   * The tool winds its work down itself when its signal aborts and then returns a result saying
   * how it ended (Agent: the subagent's `stopped` result, after its `agent_end`). The call then
   * waits for that result instead of answering at once that it was aborted, so nothing the call
   * started outlives the turn; the executor's abort grace still bounds the wait.
   */
  readonly settlesOnAbort?: boolean
}

/** Any tool, whatever its input type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>

/** One session's scheduled prompts, as the Cron tools reach them (store/schedule, wired in runtime/schedule). */
export interface ScheduleAccess {
  create(job: NewJob): Promise<{ ok: true; job: ListedJob } | { ok: false; reason: string }>
  list(): ListedJob[]
  delete(id: string): Promise<boolean>
  /** Asks the user, through the approval queue, to allow a schedule that fires more than once a minute. */
  confirm(text: string, toolUseId: string, signal: AbortSignal): Promise<boolean>
}
