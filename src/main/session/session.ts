import type { AgentEvent, Usage } from '../../shared/protocol/agent-event'
import { AppError } from '../../shared/ipc/result'
import { ReminderQueue, withReminders } from '../context/reminders'
import { buildSystemPrompt } from '../context/system-prompt'
import { query } from '../engine/query'
import type { QueryResult } from '../engine/types'
import { addUsage, zeroUsage } from '../engine/usage'
import { resolveModelAlias } from '../services/model/config'
import type { Message, TextBlock } from '../services/model/types'
import { TranscriptWriter } from '../store/transcript'
import type { PromptExpansion, SessionEnvironment, SessionSeed, Toolset } from './session-environment-types'

export type { PromptExpansion, SessionEnvironment, SessionLifecycle, SessionSeed, Toolset } from './session-environment-types'

/** Events the transcript keeps (deltas and progress are replayable from the messages, or noise). */
const VOLATILE = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_progress'])

/**
 * One conversation in one project: its messages, its transcript and at most one running turn.
 * Events go out on the hub's `agent.event` channel and, except deltas, into the transcript.
 */
export class Session {
  private messages: Message[]
  private usage: Usage
  private costUsd: number
  private writer: TranscriptWriter | undefined
  private running: { controller: AbortController; done: Promise<QueryResult> } | undefined
  private toolset: Promise<Toolset> | undefined
  private turnCounter = 0
  private started = false
  /** The model chosen for this session (`/model`), if any. */
  private model: string | undefined
  private readonly resumed: boolean
  private readonly reminders: ReminderQueue
  private limitAnswer: ((proceed: boolean) => void) | undefined

  constructor(
    readonly id: string,
    readonly projectPath: string,
    private readonly env: SessionEnvironment,
    seed?: SessionSeed,
  ) {
    this.messages = seed?.messages ?? []
    this.usage = seed?.usage ?? zeroUsage()
    this.costUsd = seed?.costUsd ?? 0
    this.resumed = seed !== undefined
    this.reminders = env.reminders ?? new ReminderQueue()
    if (seed?.persisted) this.writer = TranscriptWriter.open(env.transcriptPath)
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
  runTurn(text: string): Promise<QueryResult> {
    if (this.running) throw new AppError('CONFLICT', 'A turn is already running in this session.')
    const controller = new AbortController()
    const done = this.loop(text, controller.signal).finally(() => {
      this.running = undefined
    })
    this.running = { controller, done }
    return done
  }

  /**
   * The model for this session's next requests (`/model`; an alias such as `opus` is resolved),
   * or back to the default with `undefined`. A running turn keeps its model. Returns the model now used.
   */
  setModel(model: string | undefined): string {
    this.model = model === undefined ? undefined : resolveModelAlias(model)
    return this.model ?? this.env.modelName
  }

  /** Answers the running turn's question at its request guard; false when no question waits. */
  answerTurnLimit(proceed: boolean): boolean {
    const answer = this.limitAnswer
    if (!answer) return false
    answer(proceed)
    return true
  }

  /** Stops the running turn and waits for it to wind down. */
  async abort(): Promise<void> {
    const running = this.running
    if (!running) return
    running.controller.abort()
    await running.done
  }

  /** Stops the running turn and releases the tools (PTYs, background shells). */
  async dispose(): Promise<void> {
    await this.abort()
    if (this.started) await this.env.lifecycle?.sessionEnd?.('other').catch(() => undefined)
    const toolset = this.toolset
    this.toolset = undefined
    await (await toolset?.catch(() => undefined))?.dispose?.()
    await this.env.release?.()
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
    this.transcript().setTitle(title)
  }

  /** Makes sure the transcript holds the conversation as the session sees it (after a repair). */
  persistRepair(): void {
    this.transcript().replaceMessages(this.messages, 'repair')
  }

  private async loop(text: string, signal: AbortSignal): Promise<QueryResult> {
    const identity = { sessionId: this.id, agentId: 'main' }
    const context = await this.hookContext(text)
    if ('blocked' in context) {
      const message = `A UserPromptSubmit hook blocked the prompt: ${context.blocked}`
      this.emit({ ...identity, type: 'turn_start', turnId: `${this.id}:${++this.turnCounter}`, prompt: text })
      this.emit({ ...identity, type: 'turn_end', reason: 'hook_stopped', message })
      return { reason: 'hook_stopped', message, messages: this.messages, turns: 0, usage: zeroUsage(), costUsd: 0, resultText: '' }
    }
    const expansion = await this.expand(text, signal)
    if (expansion.kind === 'error') {
      const message = expansion.message
      this.emit({ ...identity, type: 'turn_start', turnId: `${this.id}:${++this.turnCounter}`, prompt: text })
      this.emit({ ...identity, type: 'turn_end', reason: 'command_failed', message })
      return { reason: 'command_failed', message, messages: this.messages, turns: 0, usage: zeroUsage(), costUsd: 0, resultText: '' }
    }
    for (const note of context.additional) this.reminders.push(note, { source: 'hook' })
    // Whatever arrived since the last request (a background command that finished, an MCP server
    // that joined…) rides along.
    const sent = expansion.kind === 'expanded' ? expansion.text : text
    const prompt = withReminders({ role: 'user', content: [{ type: 'text', text: sent }] }, this.reminders.drain())
    this.append(prompt)
    this.emit({ ...identity, type: 'turn_start', turnId: `${this.id}:${++this.turnCounter}`, prompt: text })
    try {
      const [model, toolset, system] = await Promise.all([
        this.env.model(),
        this.loadToolset(),
        this.systemPrompt(),
      ])
      const run = query({
        ...identity,
        messages: this.messages,
        system,
        tools: toolset.currentTools?.() ?? toolset.tools,
        ...(toolset.currentTools && { currentTools: toolset.currentTools }),
        toolContext: toolset.context,
        model,
        // A command's own model (its frontmatter) for its turn, else the session's.
        modelName: resolveModelAlias((expansion.kind === 'expanded' && expansion.model) || this.model || this.env.modelName),
        maxTurns: this.env.maxTurns,
        signal,
        cwd: this.projectPath,
        projectRoot: this.projectPath,
        projectDataDir: this.env.projectDataDir,
        canUseTool: this.env.canUseTool,
        hooks: this.env.hooks,
        compact: this.env.compact,
        maxTokens: this.env.maxTokens,
        usageSoFar: { usage: this.usage, costUsd: this.costUsd },
        reminders: this.reminders,
        ...(this.env.askToContinue && { onTurnLimit: () => this.waitForAnswer(signal) }),
        onMessage: (message) => this.append(message),
        onCompacted: (messages) => this.replace(messages),
      })
      for (;;) {
        const next = await run.next()
        if (next.done) return this.finish(next.value)
        this.emit(next.value)
      }
    } catch (error) {
      // A bug below (the loop itself never throws for model or tool failures): end the turn visibly.
      const message = `Internal error: ${error instanceof Error ? error.message : String(error)}`
      this.emit({ ...identity, type: 'turn_end', reason: 'model_error', message })
      return { reason: 'model_error', message, messages: this.messages, turns: 0, usage: zeroUsage(), costUsd: 0, resultText: '' }
    }
  }

  /** Expands `/name …` prompts; anything that goes wrong here is an error the user sees, never a throw. */
  private async expand(text: string, signal: AbortSignal): Promise<PromptExpansion> {
    if (!this.env.expandPrompt) return { kind: 'none' }
    try {
      const toolset = text.trimStart().startsWith('/') ? await this.loadToolset() : { tools: [] }
      return await this.env.expandPrompt(text, toolset, signal)
    } catch (error) {
      return { kind: 'error', name: text.split(/\s/)[0] ?? text, message: `The command could not be expanded: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  private async systemPrompt(): Promise<TextBlock[]> {
    const sections = (await this.env.systemPromptSections?.().catch(() => [])) ?? []
    return buildSystemPrompt({ cwd: this.projectPath, projectRoot: this.projectPath, homeDir: this.env.homeDir, sections, append: this.env.appendSystemPrompt })
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

  /** Runs SessionStart (first turn only) and UserPromptSubmit hooks; hook failures never stop a turn. */
  private async hookContext(text: string): Promise<{ additional: string[] } | { blocked: string }> {
    const lifecycle = this.env.lifecycle
    const additional: string[] = []
    if (!this.started) {
      this.started = true
      const start = await lifecycle?.sessionStart?.(this.resumed ? 'resume' : 'startup').catch(() => undefined)
      if (start?.additionalContext) additional.push(start.additionalContext)
    }
    const submit = await lifecycle?.promptSubmit?.(text).catch(() => undefined)
    if (submit?.blocked) return { blocked: submit.blocked }
    // `continue: false` stops before the model is asked, like a block.
    if (submit?.stopReason !== undefined) return { blocked: submit.stopReason }
    if (submit?.additionalContext) additional.push(submit.additionalContext)
    return { additional }
  }

  private finish(result: QueryResult): QueryResult {
    this.messages = result.messages
    this.usage = addUsage(this.usage, result.usage)
    this.costUsd += result.costUsd
    return result
  }

  private append(message: Message): void {
    this.messages = [...this.messages, message]
    this.transcript().appendMessage(message)
  }

  private replace(messages: Message[]): void {
    this.messages = [...messages]
    this.transcript().replaceMessages(messages, 'compaction')
  }

  private emit(event: AgentEvent): void {
    this.env.hub.emit('agent.event', event)
    if (!VOLATILE.has(event.type)) this.transcript().appendEvent(event)
  }

  private transcript(): TranscriptWriter {
    this.writer ??= TranscriptWriter.create(this.env.transcriptPath, { sessionId: this.id, projectPath: this.projectPath })
    return this.writer
  }
}
