import type { ContextBreakdown } from '../../shared/ipc/context'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import { inspectContext } from '../compaction/inspect'
import { ContextManager } from '../compaction/manager'
import type { RestorationProvider } from '../compaction/restoration'
import { compactionSettings, type CompactionSettings, type PromptCacheTtl } from '../compaction/settings'
import type { CompactionHooks, RequestShape } from '../compaction/types'
import { InstructionBudget } from '../context/instruction-files'
import { assembleSystemPrompt, type PromptSection, type SystemPrompt } from '../context/system-prompt'
import { toolSchemas } from '../engine/tool-view'
import type { Message, ModelService } from '../services/model/types'
import type { AnyTool } from '../tools/types'

/** How a host sets up a session's context: thresholds, what a summary restores, the compaction hooks, extra prompt sections. */
export interface SessionContextSetup {
  /** The thresholds, or how to derive them from the model the session uses now (`/model` changes it). */
  settings?: CompactionSettings | ((model: string, promptCacheTtl?: PromptCacheTtl) => CompactionSettings)
  restoration?: readonly RestorationProvider[]
  hooks?: CompactionHooks
  /** Parts of the dynamic prompt other features provide (the memory index). Read once per session. */
  sections?: () => Promise<PromptSection[]>
  /** Read git status into the dynamic prompt (default true). */
  git?: boolean
}

/** What {@link SessionContext} reads of its session's environment. */
export interface SessionContextEnvironment {
  context?: SessionContextSetup
  modelName: string
  maxTokens?: number
  homeDir?: string
  appendSystemPrompt?: string
  /** The first block in place of Sous's own prompt (coordinator mode). */
  basePrompt?: string
  transcriptPath: string
  /** Claude Code's `promptCacheTtl` now: how long the main conversation's cache lives, so when an idle spell has lost it. */
  promptCacheTtl?(): PromptCacheTtl | undefined
}

/** What {@link SessionContext} needs from its session itself. */
export interface SessionContextOptions {
  projectPath: string
  /** The model the session's requests use now (`/model`); the environment's default when absent. */
  model?: () => string
  history?: readonly CompactionRecord[]
  /** A compaction replaced the conversation: persist and adopt it. */
  onReplace(messages: Message[], record: CompactionRecord): void
}

/**
 * A session's context: its system prompt (assembled once, so its bytes — and the cache built on
 * them — stay the same for the whole session), its compaction (the {@link ContextManager}) and
 * the context view's figures. Owned by the Session.
 */
export class SessionContext {
  readonly manager: ContextManager
  /** Shared by the root CLAUDE.md files and the subfolder ones loaded later: each file once, one size cap. */
  readonly instructionBudget = new InstructionBudget()
  private prompt: Promise<SystemPrompt> | undefined

  constructor(
    private readonly env: SessionContextEnvironment,
    private readonly options: SessionContextOptions,
  ) {
    const setup = env.context ?? {}
    const given = setup.settings
    const settingsFor =
      typeof given === 'function'
        ? given
        : given
          ? () => given
          : (model: string, promptCacheTtl?: PromptCacheTtl) => compactionSettings({ model, ...(promptCacheTtl && { promptCacheTtl }), ...(env.maxTokens !== undefined && { maxOutputTokens: Math.max(env.maxTokens, 64_000) }) })
    // Derived again only when the model (or the cache lifetime) changes: the manager reads its settings many times per request.
    let derived: { key: string; settings: CompactionSettings } | undefined
    this.manager = new ContextManager({
      settings: () => {
        const model = this.model()
        const ttl = env.promptCacheTtl?.()
        const key = `${model}\n${ttl ?? ''}`
        if (derived?.key !== key) derived = { key, settings: settingsFor(model, ttl) }
        return derived.settings
      },
      restoration: setup.restoration ?? [],
      ...(setup.hooks && { hooks: setup.hooks }),
      transcriptPath: env.transcriptPath,
      history: options.history ?? [],
      onReplace: (messages, record) => options.onReplace(messages, record),
    })
  }

  /** The model the session's requests use now. */
  model(): string {
    return this.options.model?.() ?? this.env.modelName
  }

  /** The system prompt, assembled on first use; a failed assembly is tried again next time. */
  systemPrompt(): Promise<SystemPrompt> {
    if (!this.prompt) {
      const { homeDir, appendSystemPrompt, context: setup } = this.env
      const { projectPath } = this.options
      const assembling = (async () => {
        const sections = (await setup?.sections?.().catch(() => [])) ?? []
        return assembleSystemPrompt({
          cwd: projectPath,
          projectRoot: projectPath,
          ...(homeDir && { homeDir }),
          ...(appendSystemPrompt && { append: appendSystemPrompt }),
          sections,
          git: setup?.git ?? true,
          budget: this.instructionBudget,
          ...(this.env.basePrompt !== undefined && { base: this.env.basePrompt }),
        })
      })()
      this.prompt = assembling
      assembling.catch(() => {
        if (this.prompt === assembling) this.prompt = undefined
      })
    }
    return this.prompt
  }

  /** What compaction's own requests reuse: the session's current model, system prompt and tool schemas (so they share its cache). */
  async shape(model: ModelService, tools: readonly AnyTool[], signal: AbortSignal): Promise<RequestShape> {
    const prompt = await this.systemPrompt()
    return { model, modelName: this.model(), system: prompt.blocks, tools: toolSchemas([...tools]), signal }
  }

  /** The context view's figures for the conversation as it is now; `connecting`: MCP servers whose tools are not known yet. */
  async inspect(sessionId: string, messages: readonly Message[], tools: readonly AnyTool[], connecting: readonly string[] = []): Promise<ContextBreakdown> {
    const prompt = await this.systemPrompt()
    return inspectContext({
      sessionId,
      model: this.model(),
      system: prompt,
      tools: toolSchemas([...tools]),
      connecting,
      messages,
      manager: this.manager,
      restores: (this.env.context?.restoration ?? []).map((provider) => provider.name),
    })
  }
}
