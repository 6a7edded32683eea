import type { AgentEvent, Usage } from '../../shared/protocol/agent-event'
import { AppError } from '../../shared/ipc/result'
import { parseTokenBudget } from '../engine/transitions/token-budget'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { ContextBreakdown } from '../../shared/ipc/context'
import { remindedProvider } from '../compaction/restoration'
import { ReminderQueue, withReminders } from '../context/reminders'
import { query } from '../engine/query'
import type { QueryResult } from '../engine/types'
import { addUsage, zeroUsage } from '../engine/usage'
import type { SessionMemoryPort } from '../memory/agents/session-memory'
import { resolveModelAlias } from '../services/model/config'
import type { Message } from '../services/model/types'
import { saveNotice } from '../store/save-notice'
import { keptInTranscript, TranscriptFile } from '../store/transcript-file'
import { emptyResult, runToEnd, turnEnd } from '../engine/run'
import { compactionTurn } from './compaction-turn'
import { changeReasoning, mainGuard, SessionPauseDesk, type EffortLevel, type PauseAnswer, type ReasoningPreference } from './session-guard'
import { forkedSkillTurn } from './forked-skill-turn'
import { promptHookContext } from './prompt-hooks'
import { SessionContext } from './session-context'
import { expandTyped } from './expand-typed'
import { SessionTree, sessionHandle } from './session-tree'
import type { PromptExpansion, SessionEnvironment, SessionSeed, Toolset } from './session-types'
import type { PromptImage } from './types'

export type { PromptExpansion, SessionAgentsPort, SessionEnvironment, SessionHandle, SessionLifecycle, SessionSeed, Toolset } from './session-types'

/**
 * Longer than 300 lines because a turn's flow reads in one place: prompt hooks, the loop, the
 * request guard, the budget guard's pauses, compaction between turns, forked skills typed as
 * commands and memory around the turn. What a session is given is in session-types.ts, its system
 * prompt and compaction in session-context.ts, its guard's wiring in session-guard.ts.
 *
 * One conversation in one project: its messages, its transcript and at most one running turn.
 * Events go out on the hub's `agent.event` channel and, except deltas, into the transcript.
 * Every turn opens and closes in {@link Session.turn}, whatever runs inside it.
 */
export class Session {
  private messages: Message[]
  private usage: Usage
  private lastContextTokens = 0
  private costUsd: number
  private readonly transcript: TranscriptFile
  private running: { controller: AbortController; done: Promise<QueryResult> } | undefined
  private toolset: Promise<Toolset> | undefined
  private turnCounter = 0
  private started = false
  /** The model chosen for this session (`/model`), if any. */
  private model: string | undefined
  private readonly resumed: boolean
  private readonly context: SessionContext
  readonly tree: SessionTree
  private readonly reminders: ReminderQueue
  private readonly memory: SessionMemoryPort | undefined
  private limitAnswer: ((proceed: boolean) => void) | undefined
  /** Runs paused by the budget guard or the loop brake wait here for the user. */
  private readonly pauses = new SessionPauseDesk()
  /** The main agent's last prompt size, for the guard's forecast of the next request. */
  private readonly lastPrompt = { tokens: 0 }
  /** Thinking and effort (the environment's preference object, changed in place by `/think`). */
  private readonly reasoning: ReasoningPreference
  /** What was said once a session (the guard's settings problems). */
  private readonly said = { problems: false }
  /** The set-up started when the session opened (`prepareOnOpen`), if any. */
  private readonly preparing: Promise<void> | undefined
  private disposed = false

  constructor(
    readonly id: string,
    readonly projectPath: string,
    private readonly env: SessionEnvironment,
    seed?: SessionSeed,
  ) {
    this.messages = seed?.messages ?? []
    this.turnCounter = seed?.turns ?? 0
    this.usage = seed?.usage ?? zeroUsage()
    this.costUsd = seed?.costUsd ?? 0
    this.resumed = seed !== undefined
    this.reasoning = env.reasoning ?? {}
    this.reminders = env.reminders ?? new ReminderQueue()
    this.memory = env.memory?.({
      sessionId: id,
      projectPath,
      emit: (event) => this.emit(event),
      reminders: this.reminders,
      account: (usage, costUsd, model) => this.account(usage, costUsd, model),
    })
    // A disk that refuses the transcript is said, not thrown: the turn goes on (see TranscriptFile).
    // The notice goes out only: written into the transcript, it would wait with the lines it is about.
    this.transcript = new TranscriptFile(env.transcriptPath, { sessionId: id, projectPath }, seed?.persisted === true, (report) => env.hub.emit('agent.event', saveNotice(report, { sessionId: id, agentId: 'main' }, "this session's")))
    this.context = new SessionContext(withMemorySection(env, this.memory), { projectPath, model: () => this.model ?? env.modelName, history: seed?.compactions ?? [], onReplace: (messages, record) => this.replace(messages, record) })
    this.tree = new SessionTree(env, this)
    env.attach?.(sessionHandle(this, (event) => this.emit(event), (event) => this.transcript.appendEvent(event)))
    // After the current task (the reply that opened the session goes out first), while the user
    // reads the window: the I/O (git status, instruction files, the memory index) overlaps them.
    if (env.prepareOnOpen) this.preparing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.prepare())
  }

  /**
   * Resolves once the set-up the session started when it opened has settled (at once when it
   * started none). Never rejects.
   */
  whenPrepared(): Promise<void> {
    return this.preparing ?? Promise.resolve()
  }

  /** Whether a turn is running. */
  get busy(): boolean {
    return this.running !== undefined
  }

  /** A copy of the conversation. */
  history(): Message[] {
    return [...this.messages]
  }

  /**
   * Runs one turn to its end. Throws {@link AppError} CONFLICT when a turn is already running.
   * Contract: resolves (never rejects) once the loop ended, whatever the reason.
   */
  runTurn(text: string, images: readonly PromptImage[] = []): Promise<QueryResult> {
    if (this.running) throw new AppError('CONFLICT', 'A turn is already running in this session.')
    return this.start((signal) => this.loop(text, signal, images))
  }

  /** Runs `work` as the session's one running turn (abortable, awaited on dispose). */
  private start(work: (signal: AbortSignal) => Promise<QueryResult>): Promise<QueryResult> {
    const controller = new AbortController()
    const done = work(controller.signal).finally(() => {
      this.running = undefined
    })
    this.running = { controller, done }
    return done
  }

  /** Resolves once no turn is running (at once when none is). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.done
  }

  /**
   * The model for this session's next requests (`/model`; an alias such as `opus` is resolved),
   * or back to the default with `undefined`. A running turn keeps its model. Returns the model now used.
   */
  setModel(model: string | undefined): string {
    this.model = model === undefined ? undefined : resolveModelAlias(model)
    return this.model ?? this.env.modelName
  }

  /**
   * `/model` with its hooks: PreModelSwitch may keep the model (an AppError CONFLICT with the
   * hook's reason), PostModelSwitch hears the switch. Returns the model now used.
   */
  async switchModel(model: string | undefined): Promise<string> {
    const from = this.model ?? this.env.modelName
    const to = model === undefined ? this.env.modelName : resolveModelAlias(model)
    const change = { from_model: from, to_model: to, requested_model: model ?? null, source: 'command' as const, context_tokens: this.lastContextTokens }
    const pre = await this.env.lifecycle?.preModelSwitch?.(change)
    if (pre?.blocked) throw new AppError('CONFLICT', `The model stays ${from}: ${pre.blocked}`)
    const now = this.setModel(model)
    await this.env.lifecycle?.postModelSwitch?.({ ...change, to_model: now })
    return now
  }

  /**
   * `/compact [instructions]`: between turns the conversation is summarized now (its events go out
   * as a turn of their own); while a turn runs, before that turn's next request (`queued`).
   */
  compact(instructions = ''): { queued: boolean; done?: Promise<QueryResult> } {
    if (this.running) {
      this.context.manager.request('manual', instructions)
      return { queued: true }
    }
    return { queued: false, done: this.start((signal) => this.runCompaction(instructions, signal)) }
  }

  /**
   * The context view's figures: what the next request holds and what compaction did and would do.
   * Waits for nothing slow: MCP servers still connecting are listed as such (their tools join the
   * request when they arrive), and the sandbox starts only with the first Bash call.
   */
  async inspectContext(): Promise<ContextBreakdown> {
    const toolset = await this.loadToolset()
    const connecting = (toolset.context?.mcp?.states() ?? []).filter((server) => server.status === 'pending' || server.status === 'connecting').map((server) => server.name)
    return this.context.inspect(this.id, this.messages, toolset.currentTools?.() ?? toolset.tools, connecting)
  }

  /** Answers the running turn's question at its request guard; false when no question waits. */
  answerTurnLimit(proceed: boolean): boolean {
    const answer = this.limitAnswer
    if (!answer) return false
    answer(proceed)
    return true
  }

  /** `/think`: thinking and effort for this session's next requests (and its subagents'); answers what is in force. */
  setReasoning(change: { thinking?: boolean; effort?: EffortLevel }): { thinking: boolean; effort?: EffortLevel } {
    return changeReasoning(this.reasoning, change)
  }

  /** Answers a run paused by the budget guard or the loop brake; false when no such pause waits. */
  answerPause(pauseId: string, answer: PauseAnswer): boolean {
    return this.pauses.answer(pauseId, answer)
  }

  /** Stops the running turn and waits for it to wind down. */
  async abort(): Promise<void> {
    const running = this.running
    if (!running) return
    running.controller.abort()
    await running.done
  }

  /** Resolves once the session's memory work (recall, extraction) has settled. */
  memoryIdle(): Promise<void> {
    return this.memory?.idle() ?? Promise.resolve()
  }

  /** Stops the running turn and releases the tools (PTYs, background shells); its owner then frees the parts (see live-session.ts). */
  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([this.abort(), this.env.agents?.dispose()])
    await this.memory?.dispose()
    if (this.started) await this.env.lifecycle?.sessionEnd?.('other').catch(() => undefined)
    const toolset = this.toolset
    this.toolset = undefined
    await (await toolset?.catch(() => undefined))?.dispose?.()
    // A last try at what a full disk held back; what still cannot be written is said.
    this.transcript.close()
  }

  /**
   * Assembles the system prompt (git status, CLAUDE.md files, the memory index, the skill catalog)
   * ahead of the first request. The toolset is left to its first use: it reads answers the user
   * may not have given yet (whether the project's agents are trusted). A failure is left for the
   * turn that needs the prompt, which tries again and reports it.
   */
  private async prepare(): Promise<void> {
    if (this.disposed) return
    await this.context.systemPrompt().catch(() => undefined)
  }

  /** The names of the tools the next request offers (loads the toolset, as the first turn would). */
  async toolNames(): Promise<string[]> {
    const toolset = await this.loadToolset()
    return (toolset.currentTools?.() ?? toolset.tools).map((tool) => tool.name)
  }

  /**
   * The session's tools, built on the first turn and kept. A build that failed (the Bash parser's
   * wasm would not load…) is not kept: this turn ends with the error, the next one tries again.
   */
  private loadToolset(): Promise<Toolset> {
    if (!this.toolset) {
      const loading = this.env.toolset()
      this.toolset = loading
      loading.catch(() => {
        if (this.toolset === loading) this.toolset = undefined
      })
    }
    return this.toolset
  }

  /** Records a new title in the transcript. */
  rename(title: string): void {
    this.transcript.setTitle(title)
  }

  /** Makes sure the transcript holds the conversation as the session sees it (after a repair). */
  persistRepair(): void {
    this.transcript.replaceMessages(this.messages, 'repair')
  }

  private async loop(text: string, signal: AbortSignal, images: readonly PromptImage[] = []): Promise<QueryResult> {
    const identity = { sessionId: this.id, agentId: 'main' }
    const context = await this.hookContext(text)
    if ('blocked' in context) return this.refuse(text, 'hook_stopped', `A UserPromptSubmit hook blocked the prompt: ${context.blocked}`)
    const expansion = await expandTyped(this.env, text, () => this.loadToolset(), signal)
    if (expansion.kind === 'error') return this.refuse(text, 'command_failed', expansion.message)
    for (const note of context.additional) this.reminders.push(note, { source: 'hook' })
    if (expansion.kind === 'fork') return this.runForkedSkill(text, expansion, signal)
    // Whatever arrived since the last request (a background command that finished, an MCP server
    // that joined…) rides along.
    const sent = expansion.kind === 'expanded' ? expansion.text : text
    const pictures = images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mediaType, data: image.data } }))
    const prompt = withReminders({ role: 'user', content: [{ type: 'text', text: sent }, ...pictures] }, this.reminders.drain())
    this.append(prompt)
    return this.turn(text, async (turn) => {
      turn.afterEnd(() => this.memory?.turnEnded(turn.id))
      const [model, toolset, system] = await Promise.all([this.env.model(), this.loadToolset(), this.context.systemPrompt()])
      // A command's own model (its frontmatter) for its turn, else the session's (`/model`). The
      // extraction after the turn uses the same one: its request must match the turn's cache prefix.
      const modelName = resolveModelAlias((expansion.kind === 'expanded' && expansion.model) || this.model || this.env.modelName)
      const run = query({
        ...identity,
        messages: this.messages,
        system: system.blocks,
        tools: toolset.currentTools?.() ?? toolset.tools,
        ...(toolset.currentTools && { currentTools: toolset.currentTools }),
        ...(this.env.toolSearch && { toolSearch: this.env.toolSearch(modelName) }),
        toolContext: { ...toolset.context, requestCompaction: (instructions?: string) => this.context.manager.request('auto', instructions) },
        model,
        modelName,
        maxTurns: this.env.maxTurns,
        signal,
        cwd: this.projectPath,
        projectRoot: this.projectPath,
        projectDataDir: this.env.projectDataDir,
        canUseTool: this.env.canUseTool,
        hooks: this.env.hooks,
        context: this.context.manager,
        ...(this.env.maxTokens !== undefined && { maxTokens: this.env.maxTokens }),
        reasoning: this.reasoning,
        ...(this.env.guard && {
          guard: mainGuard({ sessionId: this.id, setup: this.env.guard, emit: (event) => this.emit(event), ...(this.env.askToContinue && { desk: this.pauses }), signal, requestCompaction: () => this.context.manager.request('manual', ''), lastPrompt: this.lastPrompt, said: this.said }),
        }),
        ...(this.env.promptCacheTtl && { promptCacheTtl: this.env.promptCacheTtl }),
        ...(parseTokenBudget(text) !== undefined && { tokenBudget: parseTokenBudget(text) }),
        usageSoFar: { usage: this.usage, costUsd: this.costUsd },
        ...(this.env.toolSummaries && { toolSummaries: this.env.toolSummaries }),
        reminders: this.reminders,
        ...(this.env.askToContinue && { onTurnLimit: () => this.waitForAnswer(signal) }),
        onMessage: (message) => this.append(message),
      })
      let recalling = false
      const result = this.finish(
        await runToEnd(run, (event) => {
          this.emit(event)
          // Recall runs beside the turn, from the moment its first request is on its way: not even its
          // local work (listing the memory folders) competes with sending that request.
          if (!recalling && event.type === 'request_start') {
            recalling = true
            this.memory?.startRecall(turn.id, text)
          }
        }),
      )
      if (result.reason === 'completed') {
        const prefix = { system: system.blocks, tools: toolset.currentTools?.() ?? toolset.tools, ...(this.env.toolSearch && { toolSearch: this.env.toolSearch(modelName) }), toolContext: toolset.context, model, modelName, sessionId: this.id, cwd: this.projectPath, projectRoot: this.projectPath, projectDataDir: this.env.projectDataDir, reasoning: { ...this.reasoning }, ...(this.env.maxTokens !== undefined && { maxTokens: this.env.maxTokens }) }
        // The same thinking and limits as the turn's requests: a change of thinking would miss the cached prefix.
        turn.afterEnd(() => this.memory?.afterTurn(turn.id, { ...prefix, messages: result.messages }))
      }
      return result
    })
  }

  /**
   * The turn primitive: every turn of the main agent — a prompt's loop, a refused prompt, a forked
   * skill, `/compact` between turns — opens here (`turn_start` with `prompt` as typed), runs `body`
   * and closes here (`turn_end` from the body's result, see engine/run.ts `turnEnd`); then what the
   * body asked to follow the turn's end runs (memory's bookkeeping), in order.
   * Contract: resolves, never rejects: a body that throws (a bug below; the loop itself never throws
   * for model or tool failures) ends the turn visibly as `model_error`.
   */
  private async turn(prompt: string, body: (turn: OpenTurn) => Promise<QueryResult>): Promise<QueryResult> {
    const identity = { sessionId: this.id, agentId: 'main' }
    const after: Array<() => void> = []
    const turn: OpenTurn = { id: `${this.id}:${++this.turnCounter}`, afterEnd: (work) => after.push(work) }
    this.emit({ ...identity, type: 'turn_start', turnId: turn.id, prompt })
    const result = await body(turn).catch((error: unknown) => emptyResult('model_error', this.messages, { message: `Internal error: ${error instanceof Error ? error.message : String(error)}` }))
    this.emit(turnEnd(result, identity))
    for (const work of after) {
      try {
        work()
      } catch {
        // What follows a turn (memory's ports never throw by contract) must not undo a turn that ended.
      }
    }
    return result
  }

  /** A prompt that never reached the model (a hook blocked it, a command failed): a turn that says why. */
  private refuse(prompt: string, reason: 'hook_stopped' | 'command_failed', message: string): Promise<QueryResult> {
    return this.turn(prompt, async () => emptyResult(reason, this.messages, { message }))
  }

  /** Waits for {@link answerTurnLimit}; an abort of the turn answers "stop". */
  private waitForAnswer(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (proceed: boolean) => {
        this.limitAnswer = undefined
        signal.removeEventListener('abort', onAbort)
        resolve(proceed)
      }
      const onAbort = () => done(false)
      if (signal.aborted) return done(false)
      signal.addEventListener('abort', onAbort, { once: true })
      this.limitAnswer = done
    })
  }

  /** SessionStart (first turn only) and UserPromptSubmit hooks (see prompt-hooks.ts). */
  private hookContext(text: string): Promise<{ additional: string[] } | { blocked: string }> {
    const start = this.started ? undefined : this.resumed ? 'resume' : 'startup'
    this.started = true
    return promptHookContext(this.env.lifecycle, text, start)
  }

  private finish(result: QueryResult): QueryResult {
    this.messages = result.messages
    this.usage = addUsage(this.usage, result.usage)
    this.costUsd += result.costUsd
    return result
  }

  /** A side request of the session (recall, extraction): its cost joins the session's, and the totals go out. */
  private account(usage: Usage, costUsd: number, model: string): void {
    this.usage = addUsage(this.usage, usage)
    this.costUsd += costUsd
    this.emit({ sessionId: this.id, agentId: 'memory', type: 'usage', model, request: usage, total: this.usage, costUsd: this.costUsd, requestCostUsd: costUsd })
  }

  private append(message: Message): void {
    this.messages = [...this.messages, message]
    this.transcript.appendMessage(message)
    this.env.onMessage?.(message)
  }

  /** A compaction replaced the conversation: the transcript gets a boundary (its earlier lines stay). */
  private replace(messages: Message[], record: CompactionRecord): void {
    this.messages = [...messages]
    this.transcript.replaceMessages(messages, 'compaction', record)
  }

  /** `/name` of a skill with `context: fork`: its subagent runs, the main model is not asked (see forked-skill-turn.ts). */
  private async runForkedSkill(typed: string, expansion: Extract<PromptExpansion, { kind: 'fork' }>, signal: AbortSignal): Promise<QueryResult> {
    const toolset = await this.loadToolset().catch((error: unknown) => error instanceof Error ? error : new Error(String(error)))
    if (toolset instanceof Error) return this.refuse(typed, 'command_failed', `/${expansion.name} could not start: ${toolset.message}`)
    const context = { cwd: this.projectPath, projectRoot: this.projectPath, projectDataDir: this.env.projectDataDir, sessionId: this.id, agentId: 'main', toolUseId: '', signal, progress: () => {}, ...toolset.context }
    return this.turn(typed, () => forkedSkillTurn({ ...expansion, context, emit: (event) => this.emit(event), append: (message) => this.append(message), messages: () => this.messages }))
  }

  /** `/compact` between turns, shown as a turn of its own. */
  private runCompaction(instructions: string, signal: AbortSignal): Promise<QueryResult> {
    return this.turn(instructions ? `/compact ${instructions}` : '/compact', () => compactionTurn({
      sessionId: this.id,
      instructions,
      signal,
      messages: () => this.messages,
      shape: async () => {
        const [model, toolset] = await Promise.all([this.env.model(), this.loadToolset()])
        return this.context.shape(model, toolset.currentTools?.() ?? toolset.tools, signal)
      },
      manager: this.context.manager,
      emit: (event) => this.emit(event),
    }))
  }

  private emit(event: AgentEvent): void {
    // The main agent's latest request size: what a model switch's hooks hear as context_tokens.
    if (event.type === 'context_status' && event.agentId === 'main') this.lastContextTokens = event.tokens
    this.env.hub.emit('agent.event', event)
    if (keptInTranscript(event)) this.transcript.appendEvent(event)
  }
}

/** A turn while it runs (see `Session.turn`). */
interface OpenTurn {
  readonly id: string
  /** Runs `work` once the turn has closed (after its `turn_end`), whatever ended it. */
  afterEnd(work: () => void): void
}

/** The environment with memory's part of the dynamic prompt after the owner's own sections, and its recalled memories restored after a compaction. */
function withMemorySection(env: SessionEnvironment, memory: SessionMemoryPort | undefined): SessionEnvironment {
  if (!memory) return env
  const sections = async () => [...((await env.context?.sections?.()) ?? []), { name: 'Memory', text: await memory.promptSection() }]
  const restoration = [...(env.context?.restoration ?? []), remindedProvider('recalled memories', 'memory', () => memory.recalled())]
  return { ...env, context: { ...env.context, sections, restoration } }
}
