import { homedir } from 'node:os'
import type { EventHub } from '../base/event-hub'
import { createBashClassifier } from '../governance/bash-preview'
import { createPermissionGate, type GateDenial, type PermissionGate } from '../governance/gate'
import { ApprovalQueue } from '../governance/approvals/queue'
import { SessionGrants } from '../governance/decide/session'
import { HookLog } from '../governance/hooks/log'
import { HookRunner } from '../governance/hooks/runner'
import { loadSettings, type LoadSettingsOptions } from '../governance/settings/load'
import type { PermissionMode } from '../governance/types'
import { ApprovalQueues } from '../host/handlers/approval'
import type { PtyProcess, PtyService } from '../pty/types'
import type { KeyStore } from '../secrets/key-store'
import type { BashSandboxState } from '../tools/bash-sandbox'
import type { ToolResult } from '../tools/types'
import { createCoreTools } from '../tools/registry'
import { createToolSession } from '../tools/tool-session'
import { DEFAULT_MODEL } from '../services/model/config'
import type { ModelService } from '../services/model/types'
import { transcriptPath } from '../store/transcript'
import type { SessionEnvironment, Toolset } from './session'
import { SessionManager } from './session-manager'
import { McpRegistry } from './mcp-registry'
import { createExtensionParts } from './session-extension-parts'
import { projectDataDir } from '../base/paths'
import type { McpServerState } from '../services/mcp'

/** What {@link createSessionRuntime} needs from its host (desktop, browser host or `sous -p`). */
export interface SessionRuntimeOptions {
  /** `$SOUS_HOME`. */
  home: string
  /** Where `ANTHROPIC_*` come from. */
  env: NodeJS.ProcessEnv
  hub: EventHub
  /** Terminals for the Bash tool; owned by the caller. */
  pty: PtyService
  /** Where a key entered in the app lives; `ANTHROPIC_API_KEY` is the fallback. */
  keyStore?: KeyStore
  /** The starting permission mode of new sessions. */
  permissionMode: PermissionMode
  /** Nobody to ask: every ask becomes a denial (reported through `onDenial`). */
  headless: boolean
  /** `--allowedTools` / `--disallowedTools`. */
  cliRules?: LoadSettingsOptions['cli']
  /** Model override (`--model`); otherwise `ANTHROPIC_MODEL` or the default. */
  model?: string
  maxTurns?: number
  appendSystemPrompt?: string
  /** Run Bash inside the OS sandbox when the settings allow and it works (default true). */
  sandbox?: boolean
  onDenial?(denial: GateDenial): void
  /** Where the user's `~` is (tests). */
  userHome?: string
  /**
   * The user's preferences (Settings), read when a session opens: they win over the environment
   * and the host's default mode, but not over explicit options (`model`). Hosts with a UI pass
   * `workspace/preferences.ts`'s `readPreferencesSync`.
   */
  preferences?(): RuntimePreferences
  /** Each Bash command's PTY as it starts (the desktop's Agent terminal; see workspace/agent-terminals). */
  onPtySpawn?(sessionId: string, proc: PtyProcess, command: string): void
  /** Sous's version, as MCP servers are told it. */
  version?: string
  /** `--mcp-config`: absolute file paths or JSON texts. */
  mcpConfigs?: string[]
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig?: boolean
  /**
   * Whether a project folder is trusted (its `.mcp.json` servers may start, its skills' and
   * commands' `allowed-tools` apply). Default: trusted in headless mode, as Claude Code's `-p` is;
   * not trusted otherwise until the host says so.
   */
  projectTrusted?(projectPath: string): boolean
  /** A project's MCP servers changed (status, tools, logs). */
  onMcpChange?(projectPath: string, states: McpServerState[]): void
}

/** What Settings may change for new sessions. */
export interface RuntimePreferences {
  model?: string
  fallbackModel?: string
  baseUrl?: string
  permissionMode?: PermissionMode
}

/** The agent side of a host: sessions plus the approval queues the UI answers. */
export interface SessionRuntime {
  sessions: SessionManager
  approvals: ApprovalQueues
  /** Each session's permission gate, for the status bar and mode switches. */
  gate(sessionId: string): PermissionGate | undefined
  /** Hook runs of every session, newest last (the hook inspector). */
  hookLog: HookLog
  /** The MCP servers of every project with an open session. */
  mcp: McpRegistry
  dispose(): Promise<void>
}

/**
 * Builds the SessionManager every host uses, with the real model service, the core tools, the
 * syntax-tree Bash classifier, the OS sandbox and a permission gate per session. One place, so the
 * desktop app, `sous serve` and `sous -p` behave the same.
 */
export function createSessionRuntime(o: SessionRuntimeOptions): SessionRuntime {
  const approvals = new ApprovalQueues(o.headless ? undefined : o.hub)
  const gates = new Map<string, PermissionGate>()
  const hookLog = new HookLog()
  const network = new NetworkAsks(o.headless)
  const sandbox = new SharedSandbox(o, (host, port) => network.ask(host, port))
  const userHome = o.userHome ?? homedir()
  const models = new ModelCache(o)
  const trusted = (projectPath: string): boolean => o.projectTrusted?.(projectPath) ?? o.headless
  const mcp = new McpRegistry({
    sousHome: o.home,
    userHome,
    env: o.env,
    ...(o.mcpConfigs && { cliConfigs: o.mcpConfigs }),
    ...(o.strictMcpConfig && { strict: true }),
    trusted,
    // Claude Code's -p loads project servers without asking; the desktop asks once per server.
    projectApproval: o.headless ? 'all' : 'ask',
    ...(o.version && { clientVersion: o.version }),
    ...(o.onMcpChange && { onChange: o.onMcpChange }),
  })

  const environment = (projectPath: string, sessionId: string): Omit<SessionEnvironment, 'projectDataDir' | 'transcriptPath'> => {
    const tools = createToolSession({ cwd: projectPath })
    const prefs = o.preferences?.() ?? {}
    const queue = new ApprovalQueue({ projectRoot: projectPath, sousHome: o.home, sessionGrants: new SessionGrants(projectPath), headless: o.headless })
    network.register(sessionId, queue)
    // Registering the queue also forwards its requests to the UI (not in headless mode).
    const forgetQueue = approvals.add(sessionId, queue)
    const emitNotice = (level: 'info' | 'warning' | 'error', message: string) =>
      o.hub.emit('agent.event', { type: 'notice', sessionId, agentId: 'main', level, message })
    // Started on the first Bash call, not with the session: most turns never need it.
    const sandboxState = (): Promise<BashSandboxState | undefined> => sandbox.acquire(projectPath)
    const gate = createPermissionGate({
      projectRoot: projectPath,
      cwd: () => tools.shell.cwd,
      sousHome: o.home,
      home: userHome,
      mode: prefs.permissionMode ?? o.permissionMode,
      cliRules: o.cliRules,
      approvals: queue,
      hooks: new HookRunner({ hooks: [], sessionId, transcriptPath: transcriptPath(o.home, projectPath, sessionId), projectRoot: projectPath, log: hookLog, env: o.env }),
      headless: o.headless,
      sandbox: sandboxState,
      sessionId,
      transcriptPath: transcriptPath(o.home, projectPath, sessionId),
      onDenial: o.onDenial,
      onNotice: (notice) => emitNotice(notice.level, notice.message),
      toolContext: () => ({ fileState: tools.fileState, shell: tools.shell }),
    })
    gates.set(sessionId, gate)
    const extensions = createExtensionParts({
      registry: mcp,
      projectPath,
      projectDataDir: projectDataDir(o.home, projectPath),
      sessionId,
      userHome,
      env: o.env,
      trusted: trusted(projectPath),
      check: (tool, input) => gate.check(tool, input),
      grants: queue.sessionGrants,
      notice: emitNotice,
    })

    const toolset = async (): Promise<Toolset> => {
      const [classifier, ask] = await Promise.all([
        createBashClassifier({ projectRoot: projectPath, cwd: () => tools.shell.cwd, home: userHome }),
        models.askModel(prefs),
      ])
      const context = {
        fileState: tools.fileState,
        shell: tools.shell,
        askModel: ask,
        ...(o.onPtySpawn && { onPtySpawn: (proc: PtyProcess, command: string) => o.onPtySpawn?.(sessionId, proc, command) }),
      }
      const core = createCoreTools({ pty: o.pty, classify: classifier.classify, inspect: classifier.inspect, sandbox: sandboxState })
      const withExtensions = extensions.toolset(core, () => context)
      return { tools: withExtensions.tools, currentTools: withExtensions.currentTools, context: { ...context, ...withExtensions.context } }
    }

    return {
      hub: o.hub,
      model: () => models.get(prefs),
      modelName: models.modelName(prefs),
      toolset,
      canUseTool: async (tool, input, toolUseId, opts) => {
        const decision = await gate.canUseTool(tool, input, toolUseId, opts)
        // A sandboxed command that reaches for a new host asks in the session that runs it.
        if (tool.name === 'Bash' && decision.behavior === 'allow') network.runningIn(sessionId, toolUseId)
        return decision
      },
      setMode: (mode) => gate.setMode(mode),
      ...extensions.environment,
      hooks: {
        onStop: () => gate.stop(),
        // Claude Code fires PostToolUseFailure instead of PostToolUse when the call failed.
        postToolUse: async (call, result) => {
          if (result.isError) await gate.postToolUseFailure(call.tool, call.input, resultText(result), call.toolUseId)
          else await gate.postToolUse(call.tool, call.input, result, call.toolUseId)
        },
      },
      lifecycle: {
        promptSubmit: (prompt) => gate.userPromptSubmit(prompt),
        sessionStart: (source) => gate.sessionStart(source),
        sessionEnd: (reason) => gate.sessionEnd(reason),
      },
      // Whether or not a turn ever ran (a session opened and closed unused has no toolset), so the
      // session's state is freed here rather than with the toolset.
      async release() {
        gate.abortPending()
        network.forget(sessionId)
        forgetQueue()
        gates.delete(sessionId)
        await tools.dispose()
        await extensions.release()
      },
      maxTurns: o.maxTurns ?? 100,
      appendSystemPrompt: o.appendSystemPrompt,
      homeDir: userHome,
    }
  }

  const sessions = new SessionManager({ home: o.home, environment })
  return {
    sessions,
    approvals,
    hookLog,
    gate: (sessionId) => gates.get(sessionId),
    mcp,
    async dispose() {
      await sessions.dispose()
      await mcp.dispose()
      await sandbox.dispose()
    },
  }
}

/**
 * The model service, rebuilt when the API key changes (a key entered in the app takes effect on
 * the next turn). A configuration error becomes a model service that answers with that error, so
 * the turn ends with a clear reason instead of a crash.
 */
class ModelCache {
  private cached: { key: string | undefined; service: Promise<ModelService> } | undefined

  constructor(private readonly o: SessionRuntimeOptions) {}

  modelName(prefs: RuntimePreferences = {}): string {
    return this.o.model ?? prefs.model ?? (this.o.env['ANTHROPIC_MODEL']?.trim() || DEFAULT_MODEL)
  }

  async get(prefs: RuntimePreferences = {}): Promise<ModelService> {
    const secret = (await this.o.keyStore?.get()) ?? this.o.env['ANTHROPIC_API_KEY']
    // The service depends on the key and on the preferences that shape its configuration.
    const key = JSON.stringify([secret, prefs.model, prefs.fallbackModel, prefs.baseUrl])
    if (this.cached?.key !== key || !this.cached) this.cached = { key, service: this.build(secret, prefs) }
    return this.cached.service
  }

  /** The small-model helper WebFetch uses, over the same configuration. */
  async askModel(prefs: RuntimePreferences = {}): Promise<(system: string, user: string, signal: AbortSignal) => Promise<string>> {
    const { createAskModel } = await import('../services/model/ask')
    return async (system, user, signal) => createAskModel(await this.get(prefs))(system, user, signal)
  }

  private async build(key: string | undefined, prefs: RuntimePreferences): Promise<ModelService> {
    const { AnthropicModelService, resolveModelConfig } = await import('../services/model/index')
    const env = { ...this.o.env, ...(key ? { ANTHROPIC_API_KEY: key } : {}) }
    const model = this.o.model ?? prefs.model
    const config = resolveModelConfig(env, {
      ...(model && { model }),
      ...(prefs.fallbackModel && { fallbackModel: prefs.fallbackModel }),
      ...(prefs.baseUrl && { baseURL: prefs.baseUrl }),
    })
    if (!config.ok) {
      const message = config.error.message
      return {
        async *stream() {
          yield { type: 'error', reason: 'invalid_request', message, midStream: false } as const
        },
      }
    }
    return new AnthropicModelService(config.value)
  }
}

/**
 * The OS sandbox for Bash. The sandbox library holds one configuration per process, so it serves
 * the first project that asks; sessions of another project get "unavailable" with the reason,
 * and governance then asks before their commands (fail closed).
 */
class SharedSandbox {
  private started: Promise<{ projectRoot: string; state: BashSandboxState; dispose(): Promise<void> } | undefined> | undefined

  constructor(
    private readonly o: SessionRuntimeOptions,
    /** Asked when a sandboxed command reaches for a host outside the allowed domains. */
    private readonly askNetwork: (host: string, port: number | undefined) => Promise<boolean>,
  ) {}

  async acquire(projectRoot: string): Promise<BashSandboxState | undefined> {
    if (this.o.sandbox === false) return undefined
    this.started ??= this.start(projectRoot)
    const running = await this.started
    if (!running) return undefined
    if (running.projectRoot !== projectRoot) {
      return { available: false, reason: `the sandbox is serving another open project (${running.projectRoot})` }
    }
    return running.state
  }

  async dispose(): Promise<void> {
    const running = await this.started
    this.started = undefined
    await running?.dispose()
  }

  private async start(projectRoot: string) {
    const settings = loadSettings(projectRoot, { sousHome: this.o.home, home: this.o.userHome ?? homedir(), cli: this.o.cliRules }).settings
    // The sandbox library is large: load it only when a command needs the sandbox.
    const { startBashSandbox } = await import('../governance/gate-sandbox')
    const started = await startBashSandbox(settings, { projectRoot, sousHome: this.o.home, home: this.o.userHome, askNetwork: this.askNetwork })
    return started ? { projectRoot, ...started } : undefined
  }
}

/**
 * Network asks from the sandbox ("a new domain is an ask"). The sandbox is process-wide, so an ask
 * goes to the session whose Bash command was allowed last (the one running), as an approval with
 * the host; "allow for this session" remembers the host for that session. Headless, or with no
 * session to ask, the host is refused and the command sees the sandbox's refusal.
 */
class NetworkAsks {
  private readonly queues = new Map<string, ApprovalQueue>()
  private readonly granted = new Map<string, Set<string>>()
  private current: { sessionId: string; toolUseId: string } | undefined

  constructor(private readonly headless: boolean) {}

  register(sessionId: string, queue: ApprovalQueue): void {
    this.queues.set(sessionId, queue)
  }

  forget(sessionId: string): void {
    this.queues.delete(sessionId)
    this.granted.delete(sessionId)
    if (this.current?.sessionId === sessionId) this.current = undefined
  }

  runningIn(sessionId: string, toolUseId: string): void {
    this.current = { sessionId, toolUseId }
  }

  async ask(host: string, port: number | undefined): Promise<boolean> {
    const current = this.current
    const queue = current && this.queues.get(current.sessionId)
    if (this.headless || !current || !queue) return false
    const grants = this.granted.get(current.sessionId) ?? new Set<string>()
    if (grants.has(host)) return true
    const outcome = await queue.request({
      sessionId: current.sessionId,
      toolUseId: current.toolUseId,
      toolName: 'Bash',
      input: { host, ...(port !== undefined ? { port } : {}) },
      preview: { kind: 'url', url: port !== undefined ? `${host}:${port}` : host, domain: host },
      explanation: { kind: 'sandbox', detail: `the command connects to ${host}, which is not among the sandbox's allowed domains` },
      // No rule form silences this ask; allowed domains live in sandbox.network.allowedDomains.
      suggestions: [],
    })
    if (outcome.behavior !== 'allow') return false
    if (outcome.scope !== 'once') this.granted.set(current.sessionId, grants.add(host))
    return true
  }
}

/** A tool result's text, for hooks that get the error as a string. */
function resultText(result: ToolResult): string {
  return typeof result.content === 'string' ? result.content : result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('')
}
