import { homedir } from 'node:os'
import { CheckpointDesk } from '../checkpoints/desk'
import type { PermissionGate } from '../governance/gate/gate'
import { HookLog } from '../governance/hooks/log'
import { MemoryService } from '../memory/service'
import { projectExtensionsTrusted, projectMcpTrusted } from '../governance/trust/trust'
import { ApprovalQueues } from '../governance/approvals/registry'
import { RuntimeExtensionService, toServerStatus, type ExtensionService } from '../extensions/runtime/extension-service'
import { toHookRun } from '../governance/hooks/inspector'
import { McpRegistry } from '../services/mcp/registry'
import { ModelCache } from '../services/model/cache'
import { NetworkAsks } from '../governance/sandbox/shared/network-asks'
import { projectTrustOf, unattended, type ProjectTrust, type SessionRuntimeOptions } from './options'
import type { RuntimeParts } from './shared'
import { openSession, type RuntimeSessionParts } from './open-session'
import { SessionManager } from '../session/session-manager'
import { SharedSandbox } from '../governance/sandbox/shared/shared-sandbox'
import type { UserTaskEdits } from './user-task-edits'
import { planFilePath, plansDir } from '../store/plan-files'
import { isSessionId } from '../store/transcript'
import { SessionSchedule } from './schedule'
import { WorktreeService } from '../worktrees/service'
import { WorktreeDesk } from '../worktrees/desk'

export type { RuntimePreferences, SessionRuntimeOptions } from './options'

/** The agent side of a host: sessions plus the approval queues the UI answers. */
export interface SessionRuntime {
  sessions: SessionManager<RuntimeSessionParts>
  approvals: ApprovalQueues
  /** Each session's permission gate, for the status bar and mode switches. */
  gate(sessionId: string): PermissionGate | undefined
  /** A live session's task list as the task panel changes it. */
  userTasks(sessionId: string): UserTaskEdits | undefined
  /** Where a session's plan file is (whether or not it exists); undefined for an id that is no session id. */
  planFile(sessionId: string): string | undefined
  /** Hook runs of every session, newest last (the hook inspector). */
  hookLog: HookLog
  /** The memory of every project, shared with the memory browser's handlers (undo, proposals). */
  memory: MemoryService
  /** The MCP servers of every project with an open session. */
  mcp: McpRegistry
  /** MCP servers, skills and commands for the Extensions view and `/` completion. */
  extensions: ExtensionService
  /** Every session's checkpoints as the app's rewind reads and restores them. */
  checkpoints: CheckpointDesk
  /** A one-shot side question to the small model over the same configuration (commit messages of worktree sessions). */
  askModel(): Promise<(system: string, user: string, signal: AbortSignal) => Promise<string>>
  /** Worktree sessions: starting one, archiving, cleanup (`worktrees.*`, `session.create`'s `worktree`). */
  worktrees: WorktreeDesk
  dispose(): Promise<void>
}

/**
 * Builds the SessionManager every host uses, with the real model service, the core tools, the
 * syntax-tree Bash classifier, the OS sandbox, a permission gate per session and the projects' MCP
 * servers, skills and commands (`open-session.ts`). One place, so the desktop app,
 * `sous serve` and `sous -p` behave the same.
 */
export function createSessionRuntime(options: SessionRuntimeOptions): SessionRuntime {
  const network = new NetworkAsks()
  const userHome = options.userHome ?? homedir()
  const trust = projectTrust(options)
  // Claude Code's -p loads project servers without asking; the desktop asks once per server.
  const projectApproval: 'all' | 'ask' = unattended(options) ? 'all' : 'ask'
  const mcp = new McpRegistry({
    sousHome: options.home,
    userHome,
    env: options.env,
    ...(options.childEnv && { childEnv: options.childEnv }),
    ...(options.mcpConfigs && { cliConfigs: options.mcpConfigs }),
    ...(options.mcpConfigsFor && { projectConfigs: options.mcpConfigsFor }),
    ...(options.tunnelledMcp && { tunnelled: options.tunnelledMcp }),
    ...(options.strictMcpConfig && { strict: true }),
    trusted: trust.mcp,
    projectApproval,
    ...(options.version && { clientVersion: options.version }),
    onChange: (projectPath, states) => {
      // The desktop's Extensions view follows servers live; unattended output has no such channel.
      if (!unattended(options)) options.hub.emit('mcp.status', { projectPath, servers: states.map(toServerStatus) })
      options.onMcpChange?.(projectPath, states)
    },
  })
  const parts: RuntimeParts = {
    options,
    // Only interactive sessions add their queues (see open-session.ts).
    approvals: new ApprovalQueues(options.hub),
    hookLog: new HookLog(),
    network,
    sandbox: new SharedSandbox({ ...options, projectTrust: projectTrustOf(options) }, network),
    models: new ModelCache(options),
    memory: options.memory ?? new MemoryService({ sousHome: options.home, hub: options.hub, env: options.env, home: userHome, preferences: () => options.preferences?.() ?? {} }),
    userHome,
    mcp,
    trust,
    schedule: new SessionSchedule(options.hub, options.clock),
    // Its question "is this session still there" is answered by the manager made below.
    worktrees: new WorktreeService({ home: options.home, env: options.env, presence: (sessionId) => sessions.presence(sessionId) }),
  }
  const extensions = new RuntimeExtensionService({
    registry: mcp,
    sousHome: options.home,
    userHome,
    env: options.env,
    ...(options.childEnv && { childEnv: options.childEnv }),
    trusted: trust.mcp,
    projectApproval,
    hookLog: parts.hookLog,
    projectTrust: projectTrustOf(options),
  })
  // The hook inspector follows runs live; unattended output has no such channel.
  const stopHookEvents = unattended(options)
    ? undefined
    : parts.hookLog.subscribe((entry) => {
        if (entry.projectRoot) options.hub.emit('hooks.ran', { projectPath: entry.projectRoot, run: toHookRun(entry) })
      })
  const sessions = new SessionManager({ home: options.home, open: (projectPath, sessionId) => openSession(parts, projectPath, sessionId) })
  // Scheduled prompts fire into sessions open here, between their turns.
  parts.schedule.attach({ isIdle: (id) => sessions.parts(id) !== undefined && !sessions.isBusy(id), prompt: (id, text) => sessions.prompt(id, text) })
  // Old checkpoints and those of deleted sessions go, at most once a day (checkpoints/prune.ts);
  // imported here, not statically: nothing waits for it, so `sous -p` does not compile it first.
  void import('../checkpoints/prune').then(({ pruneDaily }) => pruneDaily(options.home, options.env)).catch(() => undefined)
  return {
    sessions,
    approvals: parts.approvals,
    hookLog: parts.hookLog,
    memory: parts.memory,
    gate: (sessionId) => sessions.parts(sessionId)?.gate,
    mcp,
    extensions,
    userTasks: (sessionId) => sessions.parts(sessionId)?.userTasks,
    checkpoints: new CheckpointDesk({ home: options.home, env: options.env, sessions }),
    askModel: () => parts.models.askModel(options.preferences?.() ?? {}),
    worktrees: new WorktreeDesk(parts.worktrees, { create: (path) => sessions.create(path), projectOf: (id) => sessions.projectOf(id), close: (id) => sessions.close(id) }),
    planFile: (sessionId) => (isSessionId(sessionId) ? planFilePath(plansDir(parts.userHome, options.env), sessionId) : undefined),
    async dispose() {
      stopHookEvents?.()
      parts.schedule.dispose()
      await sessions.dispose()
      await mcp.dispose()
      await parts.sandbox.dispose()
    },
  }
}

/**
 * The trust step's answer for the parts of a project's configuration that the extensions obey:
 * its `.mcp.json` (as the MCP client read it, so a file changed after it was read is not trusted
 * unseen) and its skills and commands (their `allowed-tools`). Headless runs assume trust.
 */
function projectTrust(options: SessionRuntimeOptions): ProjectTrust {
  if (projectTrustOf(options) === 'assume') return { mcp: () => true, extensions: () => true }
  return {
    mcp: (projectPath, mcpJsonText) => projectMcpTrusted(projectPath, options.home, mcpJsonText),
    extensions: (projectPath) => projectExtensionsTrusted(projectPath, options.home),
  }
}
