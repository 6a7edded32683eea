import type { Message } from '../services/model/types'
import type { LoadSettingsOptions } from '../governance/settings/load'
import type { EffortLevel } from '../services/model/capabilities'
import type { BudgetCaps } from '../session/guard-settings'
import type { PermissionMode } from '../governance/types'
import type { ChildEnvPolicy } from '../base/child-env'
import type { EventHub } from '../base/event-hub'
import type { PtyProcess, PtyService } from '../pty/types'
import type { McpServerState } from '../services/mcp'
import type { TunnelledMcpServers } from '../services/mcp/tunnelled'
import type { KeyStore } from '../secrets/key-store'
import type { MemoryService } from '../memory/service'
import type { AnswererKind } from '../governance/approvals/answerer'

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
  /** A remote host's model relay: model requests go to the local Sous, which holds the key (services/model/cache.ts). */
  modelRelay?: { fetch: typeof globalThis.fetch }
  /** The starting permission mode of new sessions when neither a flag nor the settings' `defaultMode` names one. */
  permissionMode: PermissionMode
  /** `--permission-mode` as given: it wins over the settings' `defaultMode` and the app's choice. */
  permissionModeFlag?: PermissionMode
  /**
   * Who answers the sessions' asks (see governance/approvals/answerer): `interactive`, a person
   * through the approval queue a UI shows; `unattended`, nobody (`sous -p`): every ask becomes a
   * denial (in the session's denial log, `RuntimeSessionParts.denials`), and the host has no UI to keep informed.
   */
  answerer: AnswererKind
  /**
   * Whether a project's own configuration (hooks, allow rules…, `.mcp.json` servers, the
   * `allowed-tools` of its skills and commands) waits for the user's trust (governance/trust):
   * `check` (the default with a UI) or `assume` (the default unattended, as Claude Code's `-p`).
   */
  projectTrust?: 'check' | 'assume'
  /** `--allowedTools` / `--disallowedTools`. */
  cliRules?: LoadSettingsOptions['cli']
  /** Model override (`--model`); otherwise `ANTHROPIC_MODEL` or the default. */
  model?: string
  /** Model requests per turn; default: none unattended, the `turnGuard` preference (asking to go on) with a UI. */
  maxTurns?: number
  appendSystemPrompt?: string
  /** Run Bash inside the OS sandbox when the settings allow and it works (default true). */
  sandbox?: boolean
  /** Every message a session's main agent adds to its conversation (the prompt, replies, tool results), as it is added: `sous -p --output-format stream-json`. */
  onMessage?(sessionId: string, message: Message): void
  /** Where the user's `~` is (tests). */
  userHome?: string
  /** The scheduler's clock (tests move it toward a fire time; default `Date.now`). */
  clock?: () => number
  /**
   * The user's preferences (Settings), read when a session opens: they win over the environment
   * and the host's default mode, but not over explicit options (`model`). Hosts with a UI pass
   * `workspace/preferences.ts`'s `readPreferencesSync`.
   */
  preferences?(): RuntimePreferences
  /** Each Bash command's PTY as it starts (the desktop's Agent terminal; see workspace/agent-terminals). */
  onPtySpawn?(sessionId: string, proc: PtyProcess, command: string): void
  /** The memory of every project; the runtime makes its own when none is given (see `runtime.memory`). */
  memory?: MemoryService
  /**
   * Variables hooks must not get besides Sous's credentials (hosts pass
   * `workspace/preferences.ts`'s `readChildEnvPolicy`; the PTY service applies the same to Bash).
   */
  childEnv?(): ChildEnvPolicy
  /**
   * A task list shared by name between sessions (a team); default `SOUS_TASK_LIST` (or Claude
   * Code's `CLAUDE_CODE_TASK_LIST_ID`) from `env`, else each session keeps its own list.
   */
  taskList?: string
  /**
   * Coordinator mode (`--coordinator`): the main agent gets the coordinator's instructions and only
   * Agent, SendMessage and TaskStop; its workers report back as user messages. Wins over the preference.
   */
  coordinator?: boolean
  /** Spending caps from the command line (`--max-budget-usd`, `--max-tokens-budget`); they win over the settings. */
  budget?: BudgetCaps
  /** `--effort`: wins over the `effortLevel` setting. */
  effort?: EffortLevel
  /** A foreground subagent still running after this long goes on in the background (default two minutes; tests). */
  agentForegroundLimitMs?: number
  /** Sous's version, as MCP servers are told it. */
  version?: string
  /** `--mcp-config`: absolute file paths or JSON texts. */
  mcpConfigs?: string[]
  /** More `--mcp-config` texts for one project, read when its servers start (`sous acp`: the editor's servers for the session's folder). */
  mcpConfigsFor?(projectPath: string): readonly string[]
  /** A remote host: the MCP servers the local Sous runs for it (`remoteLocalMcpServers`), tunnelled over the channel. */
  tunnelledMcp?: TunnelledMcpServers
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig?: boolean
  /** A project's MCP servers changed (status, tools, logs). */
  onMcpChange?(projectPath: string, states: McpServerState[]): void
}

/**
 * The trust step's answers the extensions ask for (see governance/trust): whether a project's
 * `.mcp.json` may start servers — `mcpJsonText` is the file as the MCP client read it (`null`:
 * none), so what runs is what was trusted — and whether its skills' and commands'
 * `allowed-tools` apply. Asked each time, so trusting a folder applies without reopening it.
 */
export interface ProjectTrust {
  mcp(projectPath: string, mcpJsonText: string | null): boolean
  extensions(projectPath: string): boolean
}

/** Whether the project's own settings need the user's trust in this runtime (see {@link SessionRuntimeOptions.projectTrust}). */
export function projectTrustOf(o: Pick<SessionRuntimeOptions, 'projectTrust' | 'answerer'>): 'check' | 'assume' {
  return o.projectTrust ?? (unattended(o) ? 'assume' : 'check')
}

/** Whether nobody is there: no one answers asks, and no UI follows servers, hooks or approvals. */
export function unattended(o: Pick<SessionRuntimeOptions, 'answerer'>): boolean {
  return o.answerer === 'unattended'
}

/** What Settings may change for new sessions. */
export interface RuntimePreferences {
  /** Model requests a desktop turn makes before asking whether to go on. */
  turnGuard?: number
  model?: string
  fallbackModel?: string
  baseUrl?: string
  permissionMode?: PermissionMode
  /** Recall and extraction of memories (default on). */
  autoMemory?: boolean
  memoryLocation?: 'claude' | 'sous'
  memoryWrites?: 'undoable' | 'approve'
  recallModel?: string
  /** Coordinator mode (see agents/coordinator). */
  coordinator?: boolean
}
