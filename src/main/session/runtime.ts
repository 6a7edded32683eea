import { homedir } from 'node:os'
import { createBashClassifier } from '../governance/gate/bash-preview'
import { createPermissionGate, type PermissionGate } from '../governance/gate/gate'
import { ApprovalQueue } from '../governance/approvals/queue'
import { SessionGrants } from '../governance/decide/session'
import { HookLog } from '../governance/hooks/log'
import { HookRunner } from '../governance/hooks/runner'
import { SessionMemory } from '../memory/agents/session-memory'
import { MemoryService } from '../memory/service'
import type { PtyProcess } from '../pty/types'
import { SMALL_FAST_MODEL } from '../services/model/ask'
import type { BashSandboxState } from '../tools/bash-sandbox'
import type { ToolResult } from '../tools/types'
import { createCoreTools } from '../tools/registry'
import { createToolSession } from '../tools/tool-session'
import { transcriptPath } from '../store/transcript'
import type { SessionEnvironment, Toolset } from './session'
import { ApprovalQueues } from './approval-queues'
import { ModelCache } from './model-cache'
import { NetworkAsks } from './network-asks'
import type { SessionRuntimeOptions } from './runtime-options'
import { SessionManager } from './session-manager'
import { SharedSandbox } from './shared-sandbox'

export type { RuntimePreferences, SessionRuntimeOptions } from './runtime-options'

/** The agent side of a host: sessions plus the approval queues the UI answers. */
export interface SessionRuntime {
  sessions: SessionManager
  approvals: ApprovalQueues
  /** Each session's permission gate, for the status bar and mode switches. */
  gate(sessionId: string): PermissionGate | undefined
  /** Hook runs of every session, newest last (the hook inspector). */
  hookLog: HookLog
  /** The memory of every project, shared with the memory browser's handlers (undo, proposals). */
  memory: MemoryService
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
  const memory = o.memory ?? new MemoryService({ sousHome: o.home, hub: o.hub, env: o.env, home: userHome, preferences: () => o.preferences?.() ?? {} })

  const environment = (projectPath: string, sessionId: string): Omit<SessionEnvironment, 'projectDataDir' | 'transcriptPath'> => {
    const tools = createToolSession({ cwd: projectPath })
    const prefs = o.preferences?.() ?? {}
    const grants = new SessionGrants(projectPath)
    const queue = new ApprovalQueue({ projectRoot: projectPath, sousHome: o.home, sessionGrants: grants, headless: o.headless })
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

    const toolset = async (): Promise<Toolset> => {
      const [classifier, ask] = await Promise.all([
        createBashClassifier({ projectRoot: projectPath, cwd: () => tools.shell.cwd, home: userHome }),
        models.askModel(prefs),
      ])
      return {
        tools: createCoreTools({ pty: o.pty, classify: classifier.classify, inspect: classifier.inspect, sandbox: sandboxState }),
        context: {
          fileState: tools.fileState,
          shell: tools.shell,
          askModel: ask,
          ...(o.onPtySpawn && { onPtySpawn: (proc: PtyProcess, command: string) => o.onPtySpawn?.(sessionId, proc, command) }),
        },
      }
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
      },
      memory: (host) =>
        new SessionMemory(host, {
          service: memory,
          model: () => models.get(prefs),
          recallModel: () => memory.preferences().recallModel ?? SMALL_FAST_MODEL,
          extract: !o.headless,
          // Memories are read on demand (the index says where); reading them never asks.
          allowRead: (folders) => {
            for (const folder of folders) grants.add(`Read(/${escapeGlob(folder)}/**)`)
          },
        }),
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
    memory,
    gate: (sessionId) => gates.get(sessionId),
    async dispose() {
      await sessions.dispose()
      await sandbox.dispose()
    },
  }
}

/** A folder path as a literal in a permission rule's glob. */
function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, (character) => `\\${character}`)
}

/** A tool result's text, for hooks that get the error as a string. */
function resultText(result: ToolResult): string {
  return typeof result.content === 'string' ? result.content : result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('')
}
