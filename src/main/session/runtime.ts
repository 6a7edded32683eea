import { homedir } from 'node:os'
import type { PermissionGate } from '../governance/gate/gate'
import { HookLog } from '../governance/hooks/log'
import { MemoryService } from '../memory/service'
import { ApprovalQueues } from './approval-queues'
import { ModelCache } from './model-cache'
import { NetworkAsks } from './network-asks'
import type { SessionRuntimeOptions } from './runtime-options'
import { openSessionEnvironment, type RuntimeParts } from './session-environment'
import { SessionManager } from './session-manager'
import { SharedSandbox } from './shared-sandbox'
import type { UserTaskEdits } from './user-task-edits'
import { planFilePath, plansDir } from '../store/plan-files'
import { isSessionId } from '../store/transcript'

export type { RuntimePreferences, SessionRuntimeOptions } from './runtime-options'

/** The agent side of a host: sessions plus the approval queues the UI answers. */
export interface SessionRuntime {
  sessions: SessionManager
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
  dispose(): Promise<void>
}

/**
 * Builds the SessionManager every host uses, with the real model service, the core tools, the
 * syntax-tree Bash classifier, the OS sandbox and a permission gate per session
 * (`session-environment.ts`). One place, so the desktop app, `sous serve` and `sous -p` behave the same.
 */
export function createSessionRuntime(options: SessionRuntimeOptions): SessionRuntime {
  const network = new NetworkAsks(options.headless)
  const parts: RuntimeParts = {
    options,
    approvals: new ApprovalQueues(options.headless ? undefined : options.hub),
    gates: new Map(),
    hookLog: new HookLog(),
    network,
    sandbox: new SharedSandbox(options, network),
    models: new ModelCache(options),
    userHome: options.userHome ?? homedir(),
    memory:
      options.memory ??
      new MemoryService({ sousHome: options.home, hub: options.hub, env: options.env, home: options.userHome ?? homedir(), preferences: () => options.preferences?.() ?? {} }),
    userTasks: new Map(),
  }
  const sessions = new SessionManager({ home: options.home, environment: (projectPath, sessionId) => openSessionEnvironment(parts, projectPath, sessionId) })
  return {
    sessions,
    approvals: parts.approvals,
    hookLog: parts.hookLog,
    memory: parts.memory,
    gate: (sessionId) => parts.gates.get(sessionId),
    userTasks: (sessionId) => parts.userTasks.get(sessionId),
    planFile: (sessionId) => (isSessionId(sessionId) ? planFilePath(plansDir(parts.userHome, options.env), sessionId) : undefined),
    async dispose() {
      await sessions.dispose()
      await parts.sandbox.dispose()
    },
  }
}
