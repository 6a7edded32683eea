// Longer than 300 lines because every operation on a session's agents (call, message, output, stop,
// the tree's stops, runs and their teardown) works on one map of records and keeps its invariants
// together: a record is running exactly while its run is, and a stop reaches every descendant.
import { randomBytes } from 'node:crypto'
import type { PermissionModeName } from '../../shared/ipc/contract'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { shellNodeId } from '../../shared/protocol/agent-tree'
import type { ContextManager } from '../compaction/manager'
import { InstructionBudget } from '../context/instruction-files'
import { NestedInstructions } from '../context/nested-instructions'
import type { RequestGuard } from '../engine/guard'
import type { SummarizeCall } from '../engine/tool-summary'
import type { ToolSearchPolicy } from '../engine/deferred-tools'
import type { QueryHooks } from '../engine/types'
import type { ReasoningPreference } from '../services/model/capabilities'
import type { AgentLabel, ApprovalAsker } from '../governance/approvals/queue'
import type { SessionGrants } from '../governance/decide/session'
import type { PermissionGate } from '../governance/gate/gate'
import { resultText } from '../tools/result-text'
import { errorResult } from '../tools/define-tool'
import type { FileStateCache } from '../tools/file-state'
import { ShellState } from '../tools/shell/shell-state'
import type { AgentCall, AnyTool, SubagentControl, SubagentGrants, ToolContext, ToolResult } from '../tools/types'
import type { Message, ModelService } from '../services/model/types'
import { AgentRecord, type AgentMake, type RunParts } from './agent-record'
import { agentNotice, backgroundResult, finishedResult, outputResult } from './agent-results'
import { taskNotificationText, type TaskNotice } from '../context/task-notification'
import { FORK_AGENT_TYPE, type AgentCatalog } from './definitions'
import { isForkConversation } from './fork'
import { prepareFork, prepareTyped, type PrepareContext, type Prepared } from './prepare-agent'
import { runSubagent, type SubagentOutcome } from './run-subagent'
import { watchShells } from './shell-events'
import { sidechainPath } from './sidechain'
import { saveNotice } from '../store/save-notice'
import { TranscriptFile } from '../store/transcript-file'
import { subagentContext, type SubagentCompaction } from './subagent-context'
import { teammatePlanMode } from './teammate-plan-mode'

/** A foreground agent still running after this long goes on in the background (Claude Code: two minutes). */
export const FOREGROUND_LIMIT_MS = 120_000
/** How deep agents may nest (an agent started by an agent started by…). */
export const MAX_DEPTH = 4
/** How long stopping waits for an agent to wind down before reporting it stopped anyway. */
const STOP_WAIT_MS = 5_000

/** The session's main agent, as its subagents see it. */
export interface MainAgent {
  model(): string
  mode(): PermissionModeName
  tools(): readonly AnyTool[]
  shell: ShellState
  fileState: FileStateCache
}

/** What a session's subagents need from the session that owns them. */
export interface SessionAgentsOptions {
  sessionId: string
  projectRoot: string
  projectDataDir: string
  /** The session's transcript: sidechains go beside it. */
  transcriptPath: string
  userHome: string
  env: Record<string, string | undefined>
  /** The agent types (read when the session's tools are built). */
  catalog(): AgentCatalog
  model(): Promise<ModelService>
  /** Model requests per run, unless a type says otherwise. */
  maxTurns: number
  main: MainAgent
  /** A subagent's permission gate: the session's settings and hooks, its own mode and session grants, its asks naming it. */
  openGate(agent: AgentLabel, mode: PermissionModeName, state: { shell: ShellState; fileState: FileStateCache; parentToolUseId?: string; grants?: SubagentGrants; asker?: (grants: SessionGrants) => ApprovalAsker }): PermissionGate
  /** What every agent's tools share: the task list, the small model, the Agent terminal feed. */
  sharedContext(): Partial<ToolContext>
  /** A subagent's event (its sidechain already has it): out to the hub. */
  emit(event: AgentEvent): void
  /** A main-agent event that happens outside its loop (its background commands): into the session's transcript and out. */
  emitMain(event: AgentEvent): void
  /** News for the main agent: a background agent it started ended. */
  notifyMain(notice: TaskNotice, stillRelevant: () => boolean): void
  /** Default {@link FOREGROUND_LIMIT_MS}. */
  foregroundLimitMs?: number
  /** Whether an Agent call that does not say `run_in_background` runs in the background (the `agentsInBackground` setting). */
  backgroundByDefault?(): boolean
  /** Coordinator mode: every agent the main agent starts runs in the background. */
  coordinator?: boolean
  /** Thinking and effort for subagents (the session's preference; a fork copies its parent's request instead). */
  reasoning?: ReasoningPreference
  /** The session's budget guard and loop brake for one subagent's run (its spend counts toward the session's caps). */
  guard?(agent: { agentId: string; parentToolUseId?: string }): RequestGuard
  /** The small model's summaries of long-running calls (engine/tool-summary.ts). */
  toolSummaries?: { summarize: SummarizeCall; afterMs: number }
  /**
   * The session's tool-search policy for a model (`ENABLE_TOOL_SEARCH`, `deferBuiltinTools`):
   * a subagent's MCP tools are deferred past the same threshold as the main agent's. A fork
   * gets it too, so its request repeats its parent's (ToolSearch and `defer_loading` included).
   */
  toolSearch?(modelName: string): ToolSearchPolicy
  /** Subagents' compaction (thresholds, the task list, the plan); without it their conversations are sent whole. */
  compaction?: SubagentCompaction
  now?(): number
  /** Worktrees for Agent calls with `isolation: "worktree"`; without it such calls are refused. */
  worktrees?: AgentWorktrees
}

/** How an isolated agent gets its worktree, and what happens to it after its run. */
export interface AgentWorktrees {
  /** Makes the agent's worktree; throws an Error with the sentence for the model when it cannot. */
  create(agentId: string): Promise<{ path: string; branch: string }>
  /** After a run: removes the worktree when the agent changed nothing there (`removed`), else keeps it. */
  settle(path: string): Promise<'kept' | 'removed'>
}

/**
 * The subagents of one session: what the Agent, SendMessage, TaskOutput and TaskStop tools reach
 * (`ToolContext.agents`), and what the tree stops. Each agent runs the same loop as the main agent
 * (`runSubagent`) in isolation: a fresh conversation (or, a fork, a copy of its parent's), its own
 * abort controller chained to the starting turn while in the foreground, a copy of its parent's
 * file-read state, its own Bash state and background commands, its own permission gate with fresh
 * session grants whose asks name it. Everything a run set up is released in `finally`.
 * Contract: no method throws; failures are error results.
 */
export class SessionAgents implements SubagentControl {
  private readonly records = new Map<string, AgentRecord>()
  private disposed = false
  private readonly unwatchMain: () => void

  constructor(private readonly o: SessionAgentsOptions) {
    this.unwatchMain = watchShells(o.main.shell, { sessionId: o.sessionId, agentId: 'main' }, o.emitMain, this.now)
  }

  async run(call: AgentCall, ctx: ToolContext, options: { grants?: SubagentGrants } = {}): Promise<ToolResult> {
    try {
      if (this.disposed) return errorResult('The session is closing: no agent can start.')
      const caller = this.records.get(ctx.agentId)
      if (caller?.make.fork) return errorResult('A fork cannot start agents: do this work yourself, with your own tools.')
      if ((caller?.make.depth ?? 0) >= MAX_DEPTH) return errorResult(`Agents nest ${MAX_DEPTH} deep at most: do this part yourself.`)
      // Unsaid, an agent runs in the foreground unless the `agentsInBackground` setting says otherwise (Claude Code 2.1.328's default).
      const background = (call.run_in_background ?? this.o.backgroundByDefault?.() ?? false) || (this.o.coordinator === true && !caller)
      const prepared = await this.prepare(call, ctx, caller, background)
      if ('error' in prepared) return errorResult(prepared.error)
      const make = { ...prepared.make, id: newAgentId(), parentAgentId: ctx.agentId, parentToolUseId: ctx.toolUseId, depth: (caller?.make.depth ?? 0) + 1, ...(options.grants && { grants: options.grants }) }
      const record = new AgentRecord(make, background)
      let cwd = prepared.cwd
      let messages = prepared.messages
      if (call.isolation === 'worktree') {
        if (!this.o.worktrees) return errorResult('Cannot create agent worktree: worktrees are not available in this session.')
        try {
          record.worktree = await this.o.worktrees.create(record.id)
        } catch (error) {
          return errorResult(error instanceof Error ? error.message : String(error))
        }
        cwd = record.worktree.path
        // Claude Code's words to an isolated agent.
        messages = withContext(messages, `You are running in an isolated git worktree at \`${cwd}\` (a separate working copy of the repo). Changes you make here do NOT affect the main working directory (\`${prepared.cwd}\`) or other agents. Work normally — the worktree will be cleaned up automatically if you made no changes, or preserved for review if you did.`)
      }
      this.records.set(record.id, record)
      if (prepared.counted) this.contextOf(record)?.adopt(prepared.counted)
      this.start(record, messages, messages.length, cwd, call.prompt, background ? undefined : ctx.signal)
      return background ? backgroundResult(record, false) : await this.waitInForeground(record, ctx.signal)
    } catch (error) {
      return errorResult(`The agent could not start: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  async send(to: string, message: string, ctx: ToolContext): Promise<ToolResult> {
    const record = this.records.get(to)
    if (!record) return errorResult(`No agent with id "${to}".${this.known()}`)
    if (ctx.agentId !== 'main' && record.make.parentAgentId !== ctx.agentId) return errorResult(`Agent ${to} was not started by you: only the agent that started it (or the main agent) may message it.`)
    const text = `A message from the agent that started you:\n${message}`
    if (record.running) {
      record.inbox.push(text)
      return { content: `Queued for ${to}: it reads the message at its next turn boundary.` }
    }
    if (this.disposed) return errorResult('The session is closing: no agent can start again.')
    record.background = true
    this.start(record, [...record.messages, { role: 'user', content: [{ type: 'text', text }] }], 1, this.o.main.shell.cwd, text, undefined)
    return { content: `${to} had ended; it started again in the background with your message. You will be told when it finishes.` }
  }

  /**
   * Starts an agent prepared elsewhere (a teammate: see agents/team) in the background, as a child
   * of the main agent; its id, or an error when the session is closing.
   */
  launch(prepared: Prepared, prompt: string, extra: { teammate?: AgentMake['teammate']; parentToolUseId?: string }): { id: string } | { error: string } {
    if (this.disposed) return { error: 'The session is closing: no agent can start.' }
    const make: AgentMake = { ...prepared.make, id: newAgentId(), parentAgentId: 'main', depth: 1, ...(extra.parentToolUseId !== undefined && { parentToolUseId: extra.parentToolUseId }), ...(extra.teammate && { teammate: extra.teammate }) }
    const record = new AgentRecord(make, true)
    this.records.set(record.id, record)
    this.start(record, prepared.messages, prepared.messages.length, prepared.cwd, prompt, undefined)
    return { id: record.id }
  }

  /**
   * Hands `text` to an agent as its next user message: read when its current run ends (it then runs
   * again at once), or, when it is idle, it starts again with it. False when there is no such agent
   * or the session is closing.
   */
  deliver(id: string, text: string): boolean {
    const record = this.records.get(id)
    if (!record || this.disposed) return false
    if (record.running) record.inbox.push(text)
    else this.start(record, [...record.messages, { role: 'user', content: [{ type: 'text', text }] }], 1, record.parts?.shell.cwd ?? this.o.main.shell.cwd, text, undefined)
    return true
  }

  /** Whether an agent of this session is running now. */
  isRunning(id: string): boolean {
    return this.records.get(id)?.running === true
  }

  async output(id: string, options: { block: boolean; timeoutMs: number; signal: AbortSignal }): Promise<ToolResult | undefined> {
    const record = this.records.get(id)
    if (!record) return undefined
    if (options.block && record.running) await raceWithTimeout(record.done, options.timeoutMs, options.signal)
    if (!record.running) record.outputRead = true
    return outputResult(record)
  }

  async stop(id: string): Promise<ToolResult | undefined> {
    const record = this.records.get(id)
    if (!record) return undefined
    // The model learns the end from this result: no notification repeats it.
    if (!record.running) {
      record.outputRead = true
      return { content: `Agent ${id} had already ended (${record.status}).` }
    }
    await this.stopTree(record)
    record.outputRead = true
    return { content: `Agent ${id} was stopped, with the agents it started.` }
  }

  /**
   * Stops a node of the tree and what is below it: a subagent (and its agents), or a background
   * command (`<agent>/shell/<id>`). False when no such node runs here.
   */
  async stopNode(nodeId: string): Promise<boolean> {
    const record = this.records.get(nodeId)
    if (record) {
      if (record.running) await this.stopTree(record)
      return true
    }
    for (const [agentId, shell] of this.shellStates()) {
      for (const background of shell.background.list()) {
        if (shellNodeId(agentId, background.id) !== nodeId) continue
        await shell.background.stop(background.id)
        return true
      }
    }
    return false
  }

  /** Stops every subagent (the main agent's turn is the session's to stop). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.records.values()].filter((record) => record.running && record.make.parentAgentId === 'main').map((record) => this.stopTree(record)))
  }

  /** Ids of the tree's nodes that are running now: subagents and background commands. */
  liveNodeIds(): Set<string> {
    const live = new Set<string>()
    for (const record of this.records.values()) if (record.running) live.add(record.id)
    for (const [agentId, shell] of this.shellStates()) {
      for (const background of shell.background.list()) if (background.status === 'running') live.add(shellNodeId(agentId, background.id))
    }
    return live
  }

  /** The subagents running now, the main agent's own first. */
  running(): Array<{ id: string; description: string }> {
    return [...this.records.values()].filter((record) => record.running).sort((a, b) => a.make.depth - b.make.depth).map((record) => ({ id: record.id, description: record.make.description }))
  }

  /** Whether any subagent is running. */
  get busy(): boolean {
    return [...this.records.values()].some((record) => record.running)
  }

  /** Resolves once no subagent is running (one that ends may start again: it waits for that too). */
  async whenIdle(): Promise<void> {
    for (;;) {
      const running = [...this.records.values()].filter((record) => record.running)
      if (running.length === 0) return
      await Promise.all(running.map((record) => record.done))
    }
  }

  /** Stops every agent and waits for them; nothing keeps running after. */
  async dispose(): Promise<void> {
    this.disposed = true
    this.unwatchMain()
    await Promise.all([...this.records.values()].filter((record) => record.running).map((record) => this.stopTree(record)))
  }

  private now = (): number => (this.o.now ?? Date.now)()

  /**
   * A teammate's make (see agents/team): its type's prompt, model and tools as a background agent
   * of the main agent, plus SendMessage, its one way to talk to the team.
   */
  async prepareTeammate(call: AgentCall): Promise<Prepared | { error: string }> {
    const prepared = await prepareTyped(call, true, this.prepareContext(undefined))
    if ('error' in prepared) return prepared
    // SendMessage, its way to talk; and for one that starts in plan mode, ExitPlanMode (its plan goes to the lead).
    const wanted = prepared.make.mode === 'plan' ? ['SendMessage', 'ExitPlanMode'] : ['SendMessage']
    const added = this.o.main.tools().filter((tool) => wanted.includes(tool.name) && !prepared.make.tools.includes(tool))
    const tools = [...prepared.make.tools, ...added]
    return { ...prepared, make: { ...prepared.make, tools } }
  }

  private async prepare(call: AgentCall, ctx: ToolContext, caller: AgentRecord | undefined, background: boolean): Promise<Prepared | { error: string }> {
    const context = this.prepareContext(caller)
    if (call.subagent_type !== FORK_AGENT_TYPE) return prepareTyped(call, background, context)
    const origin = await ctx.origin?.()
    if (!origin) return { error: 'A fork copies the conversation of the call that starts it, and this call has none to copy.' }
    // The hard recursion guard: whatever started this conversation, a fork's own calls never fork.
    if (isForkConversation(origin.messages)) return { error: 'A fork cannot start agents: do this work yourself, with your own tools.' }
    return prepareFork(call, origin, context)
  }

  private prepareContext(caller: AgentRecord | undefined): PrepareContext {
    return {
      catalog: this.o.catalog(),
      env: this.o.env,
      sessionTools: this.o.main.tools(),
      maxTurns: this.o.maxTurns,
      projectRoot: this.o.projectRoot,
      userHome: this.o.userHome,
      caller: caller
        ? { model: caller.make.model, mode: caller.parts?.gate.mode ?? caller.make.mode, tools: caller.make.tools, fileState: caller.make.fileState, cwd: caller.parts?.shell.cwd ?? this.o.projectRoot }
        : { model: this.o.main.model(), mode: this.o.main.mode(), tools: this.o.main.tools(), fileState: this.o.main.fileState, cwd: this.o.main.shell.cwd },
    }
  }

  /** Starts a run of `record` (a new agent, or one started again) and follows it to its end. */
  private start(record: AgentRecord, messages: Message[], unsaved: number, cwd: string, prompt: string, turnSignal: AbortSignal | undefined): void {
    const signal = record.beginRun(turnSignal)
    record.done = this.execute(record, messages, unsaved, cwd, prompt, signal)
    void record.done.then((outcome) => this.afterRun(record, outcome))
  }

  private async execute(record: AgentRecord, messages: Message[], unsaved: number, cwd: string, prompt: string, signal: AbortSignal): Promise<SubagentOutcome> {
    const started = this.now()
    let parts: RunParts | undefined
    try {
      parts = this.openParts(record, cwd)
      record.parts = parts
      const { make } = record
      const [model, start] = await Promise.all([this.o.model(), parts.gate.subagentStart({ id: make.id, type: make.type })])
      const opening = start.additionalContext ? withContext(messages, start.additionalContext) : messages
      let lastText = ''
      const context = this.contextOf(record)
      const outcome = await runSubagent({
        identity: { sessionId: this.o.sessionId, agentId: make.id, parentAgentId: make.parentAgentId, ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }) },
        agentType: make.type,
        description: make.description,
        prompt,
        background: record.background,
        ...(make.teammate && { team: { name: make.teammate.team, member: make.teammate.name, color: make.teammate.color } }),
        sidechain: parts.sidechain,
        emit: (event) => {
          if (event.type === 'assistant_message') lastText = event.text
          this.o.emit(event)
        },
        unsaved,
        messages: opening,
        system: make.system,
        tools: make.tools,
        model,
        modelName: make.model,
        maxTurns: make.maxTurns,
        signal,
        cwd,
        projectRoot: this.o.projectRoot,
        projectDataDir: this.o.projectDataDir,
        canUseTool: (tool, input, toolUseId, options) => parts!.gate.canUseTool(tool, input, toolUseId, options),
        hooks: loopHooks(record, parts, () => lastText, this.nestedOf(record)),
        ...(context && { context }),
        ...(make.maxTokens !== undefined && { maxTokens: make.maxTokens }),
        ...(this.o.toolSearch && { toolSearch: this.o.toolSearch(make.model) }),
        ...(reasoningOf(make, this.o.reasoning) && { reasoning: reasoningOf(make, this.o.reasoning) }),
        ...(this.o.guard && { guard: this.o.guard({ agentId: make.id, ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }) }) }),
        ...(this.o.toolSummaries && { toolSummaries: this.o.toolSummaries }),
        toolContext: {
          ...this.o.sharedContext(),
          fileState: make.fileState,
          shell: parts.shell,
          isReadDenied: (path: string) => parts!.gate.isReadDenied(path),
          agents: this,
          ...(make.teammate?.proposePlan && { planMode: teammatePlanMode(parts.gate, make.teammate.proposePlan) }),
          ...(context && { requestCompaction: (instructions?: string) => context.request('auto', instructions) }),
        },
        usageSoFar: { usage: record.usage, costUsd: record.costUsd },
        now: this.now,
      })
      record.finish(outcome)
      return outcome
    } catch (error) {
      const outcome: SubagentOutcome = { status: 'failed', message: `Internal error: ${error instanceof Error ? error.message : String(error)}`, resultText: '', messages, usage: record.usage, costUsd: record.costUsd, turns: 0, durationMs: this.now() - started }
      record.finish(outcome)
      return outcome
    } finally {
      if (parts) await this.teardown(record, parts)
      await this.settleWorktree(record)
    }
  }

  /** An isolated agent's worktree after its run: gone when it changed nothing, else kept for review (named in its result). */
  private async settleWorktree(record: AgentRecord): Promise<void> {
    if (!record.worktree || !this.o.worktrees) return
    const fate = await this.o.worktrees.settle(record.worktree.path).catch(() => 'kept' as const)
    if (fate === 'removed') record.worktree = undefined
  }

  /** The agent's context management, made on its first run and kept for the next ones (undefined when the session gives none). */
  /** The agent's subfolder instructions (made on its first run, kept across runs like its context). */
  private nestedOf(record: AgentRecord): NestedInstructions {
    record.nested ??= new NestedInstructions(this.o.projectRoot, new InstructionBudget())
    return record.nested
  }

  private contextOf(record: AgentRecord): ContextManager | undefined {
    if (!this.o.compaction) return undefined
    const nested = this.nestedOf(record)
    record.context ??= subagentContext(this.o.compaction, {
      nested: () => nested.loaded(),
      model: record.make.model,
      fork: record.make.fork,
      fileState: record.make.fileState,
      transcriptPath: sidechainPath(this.o.transcriptPath, record.id),
      gate: () => record.parts?.gate,
      onReplace: (messages, compaction) => record.parts?.sidechain.replaceMessages(messages, 'compaction', compaction),
    })
    return record.context
  }

  /** A run's own Bash state (its cwd, its background commands, watched for the tree), gate and sidechain. */
  private openParts(record: AgentRecord, cwd: string): RunParts {
    const { make } = record
    const shell = new ShellState(cwd)
    const gate = this.o.openGate({ id: make.id, type: make.type, description: make.description }, make.teammate?.mode?.() ?? make.mode, {
      shell,
      fileState: make.fileState,
      ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }),
      ...(make.grants && { grants: make.grants }),
      ...(make.teammate && { asker: (grants: SessionGrants) => make.teammate!.asker(grants) }),
    })
    make.teammate?.onGate?.(gate)
    const path = sidechainPath(this.o.transcriptPath, make.id)
    const identity = { sessionId: this.o.sessionId, agentId: make.id, ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }) }
    const sidechain = new TranscriptFile(path, { sessionId: this.o.sessionId, projectPath: this.o.projectRoot }, record.messages.length > 0, (report) => this.o.emit(saveNotice(report, identity, `the ${make.type} agent's`)))
    const unwatch = watchShells(shell, identity, (event) => {
      sidechain.appendEvent(event)
      this.o.emit(event)
    }, this.now)
    return { shell, gate, sidechain, release: unwatch }
  }

  /** Ends what a run set up: agents it left running, pending asks, its background commands. */
  private async teardown(record: AgentRecord, parts: RunParts): Promise<void> {
    const children = [...this.records.values()].filter((child) => child.make.parentAgentId === record.id && child.running)
    // Nobody is left to read their results.
    await Promise.all(children.map((child) => this.stopTree(child)))
    parts.gate.abortPending()
    await parts.shell.dispose().catch(() => undefined)
    parts.release()
    // A last try at what a full disk held back of its sidechain; what cannot be written is said.
    parts.sidechain.close()
    if (record.parts === parts) record.parts = undefined
  }

  private afterRun(record: AgentRecord, outcome: SubagentOutcome): void {
    if (record.running) return // Started again meanwhile.
    const waiting = record.inbox.splice(0)
    if (waiting.length > 0 && outcome.status !== 'stopped' && !this.disposed) {
      // Messages that came while it was finishing: it answers them in another run.
      this.start(record, [...record.messages, { role: 'user', content: waiting.map((text) => ({ type: 'text' as const, text })) }], 1, this.o.main.shell.cwd, waiting.join('\n\n'), undefined)
      return
    }
    if (record.make.teammate) return record.make.teammate.onRunEnd(outcome)
    if (!record.background || this.disposed) return
    const notice = agentNotice(record, outcome, sidechainPath(this.o.transcriptPath, record.id))
    if (record.make.parentAgentId === 'main') this.o.notifyMain(notice, () => !record.outputRead)
    else this.records.get(record.make.parentAgentId)?.inbox.push(taskNotificationText(notice))
  }

  /**
   * The Agent call's result: the agent's end, or, past the foreground limit, word that it went on in
   * the background. When the turn is stopped (its controller is chained to `turnSignal`) it is the
   * agent's `stopped` end, after its `agent_end`: the Agent tool settles on abort itself, so the
   * parent's turn never ends before its foreground agents do.
   */
  private async waitInForeground(record: AgentRecord, turnSignal: AbortSignal): Promise<ToolResult> {
    let timer: NodeJS.Timeout | undefined
    const limit = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.o.foregroundLimitMs ?? FOREGROUND_LIMIT_MS)))
    const outcome = await Promise.race([record.done, limit])
    clearTimeout(timer)
    if (outcome) return finishedResult(record, outcome)
    if (turnSignal.aborted) {
      // Stopping with its parent: it ends rather than going on in the background.
      await raceWithTimeout(record.done, STOP_WAIT_MS)
      return record.outcome ? finishedResult(record, record.outcome) : errorResult(`Agent ${record.id} was stopped with the turn and did not end in time.`)
    }
    record.background = true
    record.detach()
    const { make } = record
    this.o.emit({ sessionId: this.o.sessionId, agentId: make.id, ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }), type: 'agent_background', at: this.now() })
    record.parts?.sidechain.appendEvent({ sessionId: this.o.sessionId, agentId: make.id, ...(make.parentToolUseId !== undefined && { parentToolUseId: make.parentToolUseId }), type: 'agent_background', at: this.now() })
    return backgroundResult(record, true)
  }

  /** Aborts an agent and every agent below it, and waits (bounded) for them to end. */
  private async stopTree(record: AgentRecord): Promise<void> {
    const below = [record, ...this.descendantsOf(record.id)].filter((agent) => agent.running)
    for (const agent of below) agent.controller.abort()
    await raceWithTimeout(Promise.all(below.map((agent) => agent.done)), STOP_WAIT_MS)
  }

  private descendantsOf(id: string): AgentRecord[] {
    const out: AgentRecord[] = []
    for (const record of this.records.values()) if (record.make.parentAgentId === id) out.push(record, ...this.descendantsOf(record.id))
    return out
  }

  private *shellStates(): Generator<[string, ShellState]> {
    yield ['main', this.o.main.shell]
    for (const record of this.records.values()) if (record.parts) yield [record.id, record.parts.shell]
  }

  private known(): string {
    const ids = [...this.records.keys()]
    return ids.length ? ` Known agents: ${ids.join(', ')}.` : ' No agent has been started in this session.'
  }
}

/**
 * The loop's hooks for a subagent: SubagentStop instead of Stop, PostToolUse(-Failure) as for the
 * main agent, and its first touch below a folder with its own CLAUDE.md loading that file.
 */
function loopHooks(record: AgentRecord, parts: RunParts, lastText: () => string, nested: NestedInstructions): QueryHooks {
  const { gate, sidechain } = parts
  return {
    onStop: () => gate.subagentStop({ id: record.id, type: record.make.type, transcriptPath: sidechain.path }, { lastAssistantMessage: lastText() }),
    runsPostToolUseHooks: () => gate.hasPostToolUseHooks(),
    postToolUse: async (call, result) => {
      if (result.isError) await gate.postToolUseFailure(call.tool, call.input, resultText(result.content), call.toolUseId)
      else await gate.postToolUse(call.tool, call.input, result, call.toolUseId)
      const loaded = result.isError ? undefined : nested.onToolCall(call.tool.name, call.input, parts.shell.cwd)
      return loaded ? { additionalContext: loaded } : undefined
    },
  }
}

/** The conversation with a SubagentStart hook's context added to its last (user) message. */
function withContext(messages: Message[], context: string): Message[] {
  const last = messages.at(-1)
  if (!last || last.role !== 'user') return messages
  const own = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content
  return [...messages.slice(0, -1), { role: 'user', content: [...own, { type: 'text', text: `<system-reminder>\n${context}\n</system-reminder>` }] }]
}

function newAgentId(): string {
  return `agent-${randomBytes(8).toString('hex')}`
}

/** Waits for `promise`, at most `ms`, or until `signal` aborts. Never rejects. */
async function raceWithTimeout(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
      onAbort = () => resolve()
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
  ])
  clearTimeout(timer)
  if (onAbort) signal?.removeEventListener('abort', onAbort)
}

/** A subagent's thinking and effort: its own (a fork's copy), else the session's, with the Agent call's `effort` on top. */
function reasoningOf(make: AgentMake, session: ReasoningPreference | undefined): ReasoningPreference | undefined {
  const base = make.reasoning ?? session
  return make.effort ? { ...base, effort: make.effort } : base
}
