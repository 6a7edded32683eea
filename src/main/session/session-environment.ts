import type { Message } from '../services/model/types'
import { DEFAULT_TURN_GUARD } from '../../shared/ipc/contract'
import { PlanMode } from '../agents/plan-mode'
import { projectDataDir } from '../base/paths'
import { planProvider, recentFilesProvider, skillsProvider, tasksProvider } from '../compaction/restoration'
import { compactionSettings } from '../compaction/settings'
import { compactWindow } from './compact-window'
import { ReminderQueue } from '../context/reminders'
import { TASK_TOOLS, TaskReminders } from '../context/task-reminders'
import type { QueryHooks } from '../engine/types'
import { createPermissionGate, type PermissionGate } from '../governance/gate/gate'
import { createBashClassifier } from '../governance/gate/bash-preview'
import { ApprovalQueue } from '../governance/approvals/queue'
import { SessionGrants } from '../governance/decide/session'
import { HookRunner } from '../governance/hooks/runner'
import type { PtyProcess } from '../pty/types'
import { plansDir } from '../store/plan-files'
import { transcriptPath } from '../store/transcript'
import type { BashSandboxState } from '../tools/bash-sandbox'
import { createCoreTools } from '../tools/registry'
import { resultText } from '../tools/result-text'
import { taskNotification } from '../tools/shell/task-notification'
import { createToolSession, type ToolSession } from '../tools/tool-session'
import { projectTrustOf, type RuntimePreferences } from './runtime-options'
import type { RuntimeParts } from './runtime-parts'
import type { SessionEnvironment, Toolset } from './session'
import { openExtensions } from './open-extensions'
import type { ExtensionParts } from './session-extension-parts'
import type { SessionContextSetup } from './session-context'
import { PromptReminders } from './prompt-reminders'
import { createSessionSubagents, type SessionSubagents } from './session-subagents'
import { sessionMemory } from './session-memory-wiring'
import { createSessionTasks, sharedTaskListName } from './session-tasks'

/** One session being opened: where it works and what it owns. */
interface Opening {
  projectPath: string
  sessionId: string
  tools: ToolSession
  preferences: RuntimePreferences
  /** Started on the first Bash call, not with the session: most turns never need it. */
  sandboxState(): Promise<BashSandboxState | undefined>
  /** News for the model (hook context, finished background commands), sent with its next request. */
  reminders: ReminderQueue
}

/**
 * Everything one session needs from its runtime: a permission gate (with its approval queue), the
 * model, the toolset (built on the first turn) and the hooks around the loop and the session.
 */
export function openSessionEnvironment(parts: RuntimeParts, projectPath: string, sessionId: string): Omit<SessionEnvironment, 'projectDataDir' | 'transcriptPath'> {
  const { options, models } = parts
  const opening: Opening = {
    projectPath,
    sessionId,
    tools: createToolSession({ cwd: projectPath }),
    preferences: options.preferences?.() ?? {},
    sandboxState: () => parts.sandbox.acquire(projectPath, sessionId),
    reminders: new ReminderQueue(),
  }
  // A background command that ends is announced on the model's next request, without polling.
  opening.tools.shell.background.onFinish((shell) =>
    opening.reminders.push(taskNotification(shell), { source: 'background-task', stillRelevant: () => !shell.endReported }),
  )
  const { gate, queue, grants, close: closeGate } = openGate(parts, opening)
  const tasks = createSessionTasks({
    projectDataDir: projectDataDir(options.home, projectPath),
    sessionId,
    sharedName: sharedTaskListName(options.taskList, options.env),
    hub: options.hub,
    // What the user changed in the task panel reaches the model with its next request.
    remind: (text) => opening.reminders.push(text, { source: 'task panel' }),
  })
  const transcript = transcriptPath(options.home, projectPath, sessionId)
  const modelName = models.modelName(opening.preferences)
  // Headless runs have no limit unless one is given (--max-turns), as in Claude Code; the desktop
  // keeps a generous guard that asks whether to go on (a subagent at the guard ends its run).
  const maxTurns = options.maxTurns ?? (options.headless ? Infinity : (opening.preferences.turnGuard ?? DEFAULT_TURN_GUARD))
  const subagents = createSessionSubagents(parts, {
    projectPath,
    sessionId,
    transcriptPath: transcript,
    projectDataDir: projectDataDir(options.home, projectPath),
    tools: opening.tools,
    preferences: opening.preferences,
    gate,
    queue,
    model: () => models.get(opening.preferences),
    modelName,
    maxTurns,
    reminders: opening.reminders,
    // Subagents compact as the main agent does: the same window rules, the same task list; a fork's
    // conversation is the main agent's, so the plan comes back for it too.
    compaction: {
      contextWindow: compactWindow(modelName, options.env, gate.currentSettings().behaviour.autoCompactWindow),
      tasks: tasks.access,
      planFile: () => plan.activePlanFile(),
    },
  })
  parts.userTasks.set(sessionId, tasks.user)
  const extensions = openExtensions(parts, opening, gate, queue)
  const plan = new PlanMode({
    sessionId,
    plansDir: plansDir(parts.userHome, options.env),
    headless: options.headless,
    approvals: queue,
    gate,
    onModeChange: (mode, previous) => options.hub.emit('agent.event', { type: 'mode_change', sessionId, agentId: 'main', mode, previous }),
  })
  const taskReminders = new TaskReminders({ tasks: () => tasks.access.store.listNow().tasks, owner: tasks.access.ownerOf('main') })
  // Reminders by the request: plan mode (at entry, then every few requests) and a neglected task list.
  opening.reminders.addSource({ source: 'plan mode', due: () => [plan.nextReminder() ?? ''] })
  opening.reminders.addSource({ source: 'tasks', due: () => taskReminders.due() })
  // Reminders with the user's prompt: files changed since read, a permission mode the user switched.
  const news = new PromptReminders({ projectRoot: projectPath, fileState: opening.tools.fileState, sink: opening.reminders, mode: () => gate.mode })
  return {
    hub: options.hub,
    model: () => models.get(opening.preferences),
    modelName,
    context: contextSetup(parts, opening, { gate, tasks, plan, extensions }),
    toolset: () => buildToolset(parts, opening, { gate, tasks, plan, extensions, subagents }),
    canUseTool: (tool, input, toolUseId, callOptions) => gate.canUseTool(tool, input, toolUseId, callOptions),
    setMode: (mode) => {
      const previous = gate.mode
      plan.setMode(mode)
      // Plan mode tells its own start and end (its reminder source); other switches are told here.
      if (mode !== previous && mode !== 'plan' && previous !== 'plan') news.modeChanged(mode)
    },
    hooks: loopHooks(gate, taskReminders),
    ...extensions.environment,
    lifecycle: {
      promptSubmit: async (prompt) => {
        const submitted = await gate.userPromptSubmit(prompt)
        if (!submitted.blocked) await news.beforePrompt()
        return submitted
      },
      sessionStart: (source) => gate.sessionStart(source),
      sessionEnd: (reason) => gate.sessionEnd(reason),
      preModelSwitch: (change) => gate.preModelSwitch(change),
      postModelSwitch: (change) => gate.postModelSwitch(change),
    },
    // Whether or not a turn ever ran (a session opened and closed unused has no toolset), so the
    // session's state is freed here rather than with the toolset.
    async release() {
      await subagents.agents.dispose()
      closeGate()
      tasks.dispose()
      parts.userTasks.delete(sessionId)
      await opening.tools.dispose()
      await extensions.release()
    },
    memory: sessionMemory(parts, { grants, model: () => models.get(opening.preferences) }),
    reminders: opening.reminders,
    maxTurns,
    askToContinue: !options.headless,
    promptCacheTtl: () => gate.currentSettings().behaviour.promptCacheTtl,
    ...(options.onMessage && { onMessage: (message: Message) => options.onMessage?.(sessionId, message) }),
    appendSystemPrompt: options.appendSystemPrompt,
    // A person will look before the first request (the context view) or type it: have the prompt
    // ready. `sous -p` sends its request at once and would only pay for the scheduling.
    prepareOnOpen: !options.headless,
    homeDir: parts.userHome,
    agents: subagents.agents,
    attach: (session) => subagents.attach(session),
    taskSnapshot: async () => ({ listId: tasks.access.listId, tasks: (await tasks.access.store.list()).tasks }),
    ...(subagents.basePrompt !== undefined && { basePrompt: subagents.basePrompt }),
    ...(subagents.coordinator && { settled: () => subagents.settled() }),
  }
}

/**
 * The session's approval queue (shown in the UI, unless headless; asked by the sandbox's network
 * check) and its permission gate. `close` cancels what is pending and unregisters both.
 */
function openGate(parts: RuntimeParts, opening: Opening): { gate: PermissionGate; queue: ApprovalQueue; grants: SessionGrants; close(): void } {
  const { options, approvals, gates, network, hookLog, userHome } = parts
  const { projectPath, sessionId, tools } = opening
  const grants = new SessionGrants(projectPath)
  const queue = new ApprovalQueue({ projectRoot: projectPath, sousHome: options.home, sessionGrants: grants, headless: options.headless })
  network.register(sessionId, queue)
  const forgetQueue = approvals.add(sessionId, queue)
  const transcript = transcriptPath(options.home, projectPath, sessionId)
  const gate = createPermissionGate({
    projectRoot: projectPath,
    cwd: () => tools.shell.cwd,
    sousHome: options.home,
    home: userHome,
    mode: opening.preferences.permissionMode ?? options.permissionMode,
    cliRules: options.cliRules,
    projectTrust: projectTrustOf(options),
    approvals: queue,
    hooks: new HookRunner({ hooks: [], sessionId, transcriptPath: transcript, projectRoot: projectPath, log: hookLog, env: options.env, childEnv: options.childEnv, askModel: parts.models.hookAsk(opening.preferences) }),
    headless: options.headless,
    sandbox: opening.sandboxState,
    sessionId,
    transcriptPath: transcript,
    onDenial: options.onDenial,
    onNotice: (notice) => options.hub.emit('agent.event', { type: 'notice', sessionId, agentId: 'main', level: notice.level, message: notice.message }),
    onSandboxUnavailable: ({ reason, unconfined }) => options.hub.emit('agent.event', { type: 'sandbox_unavailable', sessionId, agentId: 'main', reason, unconfined }),
    toolContext: () => ({ fileState: tools.fileState, shell: tools.shell, isReadDenied: (path: string) => gate.isReadDenied(path) }),
  })
  gates.set(sessionId, gate)
  return {
    gate,
    queue,
    grants,
    close() {
      gate.abortPending()
      network.forget(sessionId)
      forgetQueue()
      gates.delete(sessionId)
    },
  }
}

/** The core tools with the syntax-tree Bash classifier, the sandbox and the small model WebFetch asks, then the extensions' tools. */
async function buildToolset(
  parts: RuntimeParts,
  opening: Opening,
  session: { gate: PermissionGate; tasks: ReturnType<typeof createSessionTasks>; plan: PlanMode; extensions: ExtensionParts; subagents: SessionSubagents },
): Promise<Toolset> {
  const { options } = parts
  const { tools, sessionId } = opening
  const { gate, tasks, plan, extensions, subagents } = session
  // Said on the first turn, when someone is listening (the CLI subscribes after the session opens).
  if (tasks.warning) options.hub.emit('agent.event', { type: 'notice', sessionId, agentId: 'main', level: 'warning', message: tasks.warning })
  const [classifier, askModel] = await Promise.all([
    createBashClassifier({ projectRoot: opening.projectPath, cwd: () => tools.shell.cwd, home: parts.userHome }),
    parts.models.askModel(opening.preferences),
  ])
  const onPtySpawn = options.onPtySpawn
  // What every agent's tools share; each agent adds its own file state, Bash state and gate's checks.
  const shared = {
    askModel,
    tasks: tasks.access,
    bashOutputMaxChars: () => gate.currentSettings().behaviour.bashOutputMaxChars,
    ...(onPtySpawn && { onPtySpawn: (terminal: PtyProcess, command: string) => onPtySpawn(sessionId, terminal, command) }),
  }
  const context = {
    ...shared,
    fileState: tools.fileState,
    shell: tools.shell,
    isReadDenied: (path: string) => gate.isReadDenied(path),
    planMode: plan,
    agents: subagents.agents,
  }
  const core = createCoreTools({ pty: options.pty, classify: classifier.classify, inspect: classifier.inspect, sandbox: opening.sandboxState })
  const withExtensions = extensions.toolset(core, () => context)
  // Subagents get the MCP tools too (judged by their own gates); skills stay the main agent's.
  const forAgents = { ...shared, ...(withExtensions.context.mcp && { mcp: withExtensions.context.mcp }) }
  return {
    tools: await subagents.mainTools(withExtensions.tools, forAgents),
    currentTools: () => subagents.withAgentTools(withExtensions.currentTools()),
    context: { ...context, ...withExtensions.context },
  }
}

/**
 * The session's compaction: thresholds from the model's window (or `SOUS_CONTEXT_WINDOW`), what a
 * summary restores (the files the agent read most recently, the session's plan, loaded skills,
 * open tasks), and the gate's PreCompact, PostCompact and SessionStart (`compact`) hooks; and the
 * system prompt's extra sections (the skill catalog).
 */
function contextSetup(
  parts: RuntimeParts,
  opening: Opening,
  session: { gate: PermissionGate; tasks: ReturnType<typeof createSessionTasks>; plan: PlanMode; extensions: ExtensionParts },
): SessionContextSetup {
  const { gate, tasks, plan, extensions } = session
  const env = parts.options.env
  return {
    // From the model the session uses now (`/model` may pick one with another window) and the
    // settings now (`autoCompactWindow`, re-read when a settings file changes).
    settings: (model) => {
      const contextWindow = compactWindow(model, env, gate.currentSettings().behaviour.autoCompactWindow)
      return compactionSettings({ model, ...(contextWindow !== undefined && { contextWindow }) })
    },
    restoration: [recentFilesProvider(opening.tools.fileState, (path) => gate.isReadDenied(path)), planProvider(() => plan.activePlanFile()), skillsProvider(), tasksProvider(tasks.access)],
    hooks: {
      preCompact: (trigger, instructions) => gate.preCompact(trigger, instructions),
      postCompact: (trigger, summary) => gate.postCompact(trigger, summary),
      sessionStart: () => gate.sessionStart('compact'),
    },
    // The skill catalog, read once with the rest of the system prompt.
    sections: () => extensions.promptSections(),
  }
}

/**
 * The gate's Stop and PostToolUse hooks, as the loop calls them. What the hooks after a call say
 * reaches the model with its next request; `continue: false` ends the turn. The task reminders
 * learn here when the model used a task tool and when it ended a turn.
 */
function loopHooks(gate: PermissionGate, taskReminders: TaskReminders): QueryHooks {
  return {
    onStop: (info) => {
      taskReminders.turnEnded()
      return gate.stop(info)
    },
    // Claude Code fires PostToolUseFailure instead of PostToolUse when the call failed.
    postToolUse: async (call, result) => {
      if (TASK_TOOLS.has(call.tool.name)) taskReminders.touched()
      const event = result.isError ? 'PostToolUseFailure' : 'PostToolUse'
      const outcome = result.isError
        ? await gate.postToolUseFailure(call.tool, call.input, resultText(result.content), call.toolUseId)
        : await gate.postToolUse(call.tool, call.input, result, call.toolUseId)
      const context = outcome.additionalContext && `${event} hook feedback on the ${call.tool.name} call ${call.toolUseId}:\n${outcome.additionalContext}`
      return { ...(context && { additionalContext: context }), ...(outcome.stopReason !== undefined && { stopReason: outcome.stopReason }) }
    },
  }
}
