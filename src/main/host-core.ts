import { createEventHub } from './base/event-hub'
import { createCore, type Core, type CoreOptions } from './core'
import { NodePtyService } from './pty/node-pty-service'
import type { KeyStore } from './secrets/key-store'
import { SOUS_VERSION } from './host/version'
import { RemoteProjects } from './host/remote/remote-projects'
import { createSessionRuntime, type SessionRuntime } from './runtime/runtime'
import type { SessionRuntimeOptions } from './runtime/options'
import { createAgentTerminals } from './workspace/agent-terminals'
import { readChildEnvPolicy, readPreferencesSync } from './workspace/preferences'
import { TERMINAL_FLOW } from './workspace/terminal-flow'
import { ParallelDesk } from './worktrees/parallel/desk'
import { worktreeDeskStarter } from './worktrees/parallel/starter'

/** What differs between the desktop app and `sous serve`. */
export interface HostCoreOptions {
  transport: CoreOptions['transport']
  /** `$SOUS_HOME`. */
  home: string
  /**
   * The environment, credentials included: the entry point's copy taken before they left
   * `process.env` (base/own-credentials.ts). Default `process.env`.
   */
  env?: NodeJS.ProcessEnv
  keyStore: KeyStore
  /** A remote host (`sous host --stdio`): its model requests go through the relay to the local Sous. */
  modelRelay?: { fetch: typeof globalThis.fetch }
  /** A remote host driven by `sous -p --remote`: nobody answers asks (denials), the folder is trusted as `-p` trusts it. */
  unattended?: { permissionMode?: SessionRuntimeOptions['permissionMode'] }
  /** Rules from the command line (`sous serve --allowedTools/--disallowedTools/--settings`): the `cli` and `flag` sources. */
  cliRules?: SessionRuntimeOptions['cliRules']
  /** Where problems that must not stop the app go (a listener that threw, a corrupt file…). */
  log(message: string): void
  /** `sous acp`: the editor's MCP servers for a project (`--mcp-config` texts), read when its servers start. */
  mcpConfigsFor?(projectPath: string): readonly string[]
  /** A remote host: the MCP servers the local Sous runs for it (host/remote/mcp-tunnel.ts). */
  tunnelledMcp?: SessionRuntimeOptions['tunnelledMcp']
  /** The desktop folder dialog. */
  pickFolder?: CoreOptions['pickFolder']
  /** Electron: the renderer URLs that may call. */
  appOrigins?: CoreOptions['appOrigins']
  badge?: CoreOptions['badge']
}

/** A host's core and the agent behind it. */
export interface HostCore {
  core: Core
  runtime: SessionRuntime
  /** Kills terminals and ends sessions (the core), then stops MCP servers and the sandbox (the runtime). Never rejects. */
  dispose(): Promise<void>
}

/**
 * Wires what every interactive host runs — the event hub, the PTY service with the terminal flow
 * marks, the Agent terminal feed, the session runtime (preferences applied, approvals shown in the
 * UI) and the core — in one place, so the desktop app and `sous serve` cannot drift apart.
 */
export function createHostCore(options: HostCoreOptions): HostCore {
  const events = createEventHub((error) => options.log(`event listener failed: ${String(error)}`))
  // No child (Bash, hooks, terminals) gets Sous's credentials or the variables the user marked.
  const childEnv = () => readChildEnvPolicy(options.home)
  const env = options.env ?? process.env
  const pty = new NodePtyService({ ...TERMINAL_FLOW, childEnv, env })
  // The Bash tool's PTYs show in the Agent terminal, and the user can type into them.
  const agentTerminals = createAgentTerminals(events)
  const runtime = createSessionRuntime({
    home: options.home,
    env,
    hub: events,
    pty,
    keyStore: options.keyStore,
    ...(options.modelRelay && { modelRelay: options.modelRelay }),
    permissionMode: options.unattended?.permissionMode ?? 'default',
    ...(options.unattended?.permissionMode && { permissionModeFlag: options.unattended.permissionMode }),
    answerer: options.unattended ? 'unattended' : 'interactive',
    onPtySpawn: agentTerminals.attach,
    ...(options.mcpConfigsFor && { mcpConfigsFor: options.mcpConfigsFor }),
    ...(options.tunnelledMcp && { tunnelledMcp: options.tunnelledMcp }),
    preferences: () => readPreferencesSync(options.home),
    childEnv,
    version: SOUS_VERSION,
    ...(options.cliRules && { cliRules: options.cliRules }),
  })
  // A remote host opens no remotes of its own; the app and `sous serve` do.
  const remotes = options.transport === 'stdio' ? undefined : new RemoteProjects({ sousHome: options.home, env, keyStore: options.keyStore, events, log: options.log })
  // Run on N, compare and merge: worktree sessions over the same session runtime and terminals.
  const parallel = new ParallelDesk({
    home: options.home,
    env,
    hub: events,
    sessions: runtime.sessions,
    starter: worktreeDeskStarter(runtime.worktrees),
    pty,
    ask: () => runtime.askModel(),
  })
  const core = createCore({
    ...(remotes && { remotes }),
    sousHome: options.home,
    transport: options.transport,
    keyStore: options.keyStore,
    events,
    pty,
    agentTerminals,
    sessions: runtime.sessions,
    approvals: runtime.approvals,
    memory: runtime.memory,
    extensions: runtime.extensions,
    tasks: { userTasks: runtime.userTasks, planFile: runtime.planFile },
    checkpoints: runtime.checkpoints,
    parallel,
    worktrees: runtime.worktrees,
    onWarning: options.log,
    ...(options.pickFolder && { pickFolder: options.pickFolder }),
    ...(options.appOrigins && { appOrigins: options.appOrigins }),
    ...(options.badge && { badge: options.badge }),
  })
  let disposed: Promise<void> | undefined
  return {
    core,
    runtime,
    dispose() {
      disposed ??= (async () => {
        await core.dispose()
        await runtime.dispose().catch((error: unknown) => options.log(`stopping the agent failed: ${String(error)}`))
      })()
      return disposed
    },
  }
}
