import { createEventHub, type EventHub } from './base/event-hub'
import { agentsHandlers } from './host/handlers/agents'
import { appHandlers, type BadgeShell } from './host/handlers/app'
import { extensionHandlers } from './host/handlers/extensions'
import { approvalHandlers, type ApprovalHandlerDeps } from './host/handlers/approval'
import { checkpointsHandlers } from './host/handlers/checkpoints'
import { parallelHandlers } from './host/handlers/parallel'
import type { ParallelDesk } from './worktrees/parallel/desk'
import type { CheckpointDesk } from './checkpoints/desk'
import { worktreesHandlers } from './host/handlers/worktrees'
import type { WorktreeDesk } from './worktrees/desk'
import { contextHandlers } from './host/handlers/context'
import { memoryHandlers } from './host/handlers/memory'
import { projectHandlers, type PickFolder } from './host/handlers/project'
import { userTerminals } from './host/handlers/pty'
import { sessionHandlers } from './host/handlers/session'
import { autoModeHandlers } from './host/handlers/auto-mode'
import { peerHandlers } from './host/handlers/peers'
import { settingsHandlers } from './host/handlers/settings'
import { taskHandlers, type TaskHandlerDeps } from './host/handlers/tasks'
import { trustHandlers } from './host/handlers/trust'
import { workspaceHandlers } from './host/handlers/workspace'
import { createRouter, type Handlers, type Router } from './host/router'
import { remoteHandlers } from './host/handlers/remote'
import { forwardingRouter } from './host/remote/forwarding-router'
import type { RemoteProjects } from './host/remote/remote-projects'
import { APP_URL, createSenderPolicy } from './host/sender-policy'
import { SOUS_VERSION } from './host/version'
import { RecentProjects } from './projects/recent-projects'
import type { PtyService } from './pty/types'
import type { KeyStore } from './secrets/key-store'
import { MemoryService } from './memory/service'
import type { SessionService } from './session/types'
import type { ExtensionService } from './extensions/runtime/extension-service'
import { createAgentTerminals, type AgentTerminals } from './workspace/agent-terminals'
import { readPreferencesSync } from './workspace/preferences'

/** What {@link createCore} needs. Services are built by the caller and owned by the core from then on. */
export interface CoreOptions {
  /** `$SOUS_HOME` (see `base/paths.ts`). */
  sousHome: string
  transport: 'electron' | 'browser' | 'stdio'
  keyStore: KeyStore
  /** The desktop folder dialog; without it `project.pick` answers UNAVAILABLE. */
  pickFolder?: PickFolder
  /** The agent; without it `session.*` answers UNAVAILABLE. Disposed with the core. */
  sessions?: SessionService
  /** The sessions' approval queues (from the session runtime); without them nothing is pending. */
  approvals?: ApprovalHandlerDeps
  /** MCP servers, skills and commands (from the session runtime); without it `extensions.*` answers UNAVAILABLE. */
  extensions?: ExtensionService
  /** The sessions' task lists and plan files (from the session runtime); without them `tasks.*` answers UNAVAILABLE. */
  tasks?: Omit<TaskHandlerDeps, 'sessions'>
  /** The sessions' checkpoints (from the session runtime); without them `checkpoints.*` answers UNAVAILABLE. */
  checkpoints?: CheckpointDesk
  /** Parallel sessions on worktrees (Run on N, compare, merge); without it `parallel.*` answers UNAVAILABLE. Disposed with the core. */
  parallel?: ParallelDesk
  /** Worktree sessions (from the session runtime); without them `worktrees.*` and `session.create`'s `worktree` answer UNAVAILABLE. */
  worktrees?: WorktreeDesk
  /** Terminals; without it `pty.*` answers UNAVAILABLE. Disposed with the core. */
  pty?: PtyService
  /**
   * The Bash tool's PTYs, shown in the Agent terminal: build it over the same hub and wire its
   * `attach` into the sessions' `onPtySpawn`. A new (unwired) one is made otherwise.
   */
  agentTerminals?: AgentTerminals
  /**
   * The memory of every project (the session runtime's, so the browser and the agent share undo
   * and proposals); one over `sousHome` and the hub is made otherwise.
   */
  memory?: MemoryService
  /** Pass the hub the session service already emits into; a new one is made otherwise. */
  events?: EventHub
  /** Electron: the renderer URLs that may call (default: the `app://` protocol only). */
  appOrigins?: readonly string[]
  /** The desktop's dock / taskbar badge (the inbox count); absent in the browser host. */
  badge?: BadgeShell
  /** Projects on other machines: their requests are forwarded to their hosts (host/remote/). Disposed with the core. */
  remotes?: RemoteProjects
  /** Non-fatal problems (a corrupt recent-projects file…), for the log. */
  onWarning?: (message: string) => void
  /** Handler bugs, for the log. */
  onInternalError?: (channel: string, error: unknown) => void
}

/** The running core: what transports call and listen to. */
export interface Core {
  router: Router
  events: EventHub
  /** Where the sessions' `onPtySpawn` goes (see {@link CoreOptions.agentTerminals}). */
  agentTerminals: AgentTerminals
  /**
   * Kills user terminals, ends sessions and disposes the PTY service. Idempotent.
   * Contract: never rejects.
   */
  dispose(): Promise<void>
}

/** The composition root shared by the desktop app, `sous serve` and tests. */
export function createCore(options: CoreOptions): Core {
  const log = options.onWarning ?? ((message: string) => console.warn(`[sous] ${message}`))
  const events = options.events ?? createEventHub((error) => log(`event listener failed: ${String(error)}`))
  const recent = new RecentProjects(options.sousHome, { onWarning: log })
  const agentTerminals = options.agentTerminals ?? createAgentTerminals(events)
  const terminals = userTerminals({ pty: options.pty, events, agent: agentTerminals })
  const memory = options.memory ?? new MemoryService({ sousHome: options.sousHome, hub: events, preferences: () => readPreferencesSync(options.sousHome) })

  const parallel = options.parallel
  const handlers: Handlers = {
    ...appHandlers({ version: SOUS_VERSION, transport: options.transport, ...(options.badge && { badge: options.badge }) }),
    // A project with worktree sessions has its runs read ahead (the compare view's first open).
    ...projectHandlers({ recent, pickFolder: options.pickFolder, ...(parallel && { onOpened: (path: string) => void parallel.warm(path) }) }),
    ...terminals.handlers,
    ...settingsHandlers({ keyStore: options.keyStore }),
    ...sessionHandlers({ sessions: options.sessions, ...(options.worktrees && { worktrees: options.worktrees }) }),
    ...autoModeHandlers({ sessions: options.sessions }),
    ...peerHandlers({ sessions: options.sessions }),
    ...contextHandlers({ sessions: options.sessions }),
    ...workspaceHandlers({ sousHome: options.sousHome }),
    ...approvalHandlers(options.approvals ?? { queues: () => [] }),
    ...extensionHandlers({ extensions: options.extensions, sousHome: options.sousHome }),
    ...trustHandlers({ sousHome: options.sousHome, onGranted: (projectPath) => options.extensions?.trustChanged(projectPath) }),
    ...memoryHandlers({ memory, sousHome: options.sousHome }),
    ...taskHandlers(options.tasks && { ...options.tasks, ...(options.sessions && { sessions: options.sessions }) }),
    ...agentsHandlers({ sessions: options.sessions, sousHome: options.sousHome }),
    ...checkpointsHandlers({ checkpoints: options.checkpoints }),
    ...parallelHandlers({ parallel: options.parallel }),
    ...worktreesHandlers({ worktrees: options.worktrees }),
    ...remoteHandlers({ ...(options.remotes && { remotes: options.remotes }) }),
  }
  const isTrustedSender = createSenderPolicy({ transport: options.transport, appOrigins: options.appOrigins ?? [APP_URL] })
  const localRouter = createRouter(handlers, {
    isTrustedSender,
    onInternalError:
      options.onInternalError ?? ((channel, error) => console.error(`[sous] ${channel} failed:`, error)),
  })

  const router = options.remotes ? forwardingRouter(localRouter, options.remotes, isTrustedSender) : localRouter

  let disposed: Promise<void> | undefined
  return {
    router,
    events,
    agentTerminals,
    dispose() {
      disposed ??= (async () => {
        terminals.dispose()
        options.remotes?.dispose()
        options.parallel?.dispose()
        const results = await Promise.allSettled([options.sessions?.dispose(), options.pty?.dispose()])
        for (const result of results) if (result.status === 'rejected') log(`dispose failed: ${String(result.reason)}`)
      })()
      return disposed
    },
  }
}
