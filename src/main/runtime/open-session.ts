// Longer than 300 lines because one session's wiring (gate, tasks, plan mode, subagents,
// compaction, the budget guard) reads in one place; each part is built in its own file.
import { startupMark } from '../base/startup-marks'
import { toolSearchMode, type ToolSearchPolicy } from '../engine/deferred-tools'
import { contextWindowOf } from '../../shared/context-window'
import { DEFAULT_TURN_GUARD } from '../../shared/ipc/preferences'
import { AppError } from '../../shared/ipc/result'
import { PlanMode } from '../agents/plan-mode'
import { projectDataDir } from '../base/paths'
import { contextWindowFromEnv } from '../compaction/settings'
import { InstructionBudget } from '../context/instruction-files'
import { NestedInstructions } from '../context/nested-instructions'
import type { Message } from '../services/model/types'
import { ReminderQueue } from '../context/reminders'
import { TASK_TOOLS, TaskReminders } from '../context/task-reminders'
import type { QueryHooks, ToolCallInfo } from '../engine/types'
import { createPermissionGate, type PermissionGate } from '../governance/gate/gate'
import type { ApprovalAsker } from '../governance/approvals/queue'
import { chooseAnswerer } from '../governance/approvals/answerer'
import { DenialLog } from '../governance/approvals/denials'
import { SessionGrants } from '../governance/decide/session'
import { HookRunner } from '../governance/hooks/runner'
import { plansDir } from '../store/plan-files'
import { transcriptPath } from '../store/transcript'
import { resultText } from '../tools/result-text'
import { shellNotice } from '../tools/shell/task-notification'
import { BackgroundNews } from './background-news'
import { connectingReminder } from './mcp-connecting'
import { mainBackgroundWork } from './background-work'
import { createToolSession } from '../tools/tool-session'
import { reenterWorktree } from './worktree-tools'
import { projectTrustOf, unattended } from './options'
import type { RuntimeParts } from './shared'
import type { SessionParts } from '../session/live-session'
import type { PermissionModeName } from '../../shared/ipc/contract'
import type { UserTaskEdits } from './user-task-edits'
import { openExtensions } from './open-extensions'
import { contextSetup } from './context-setup'
import { PromptReminders } from './prompt-reminders'
import { createSessionSubagents } from './subagents'
import { sessionMemory } from './memory'
import { createSessionTasks, sharedTaskListName } from './tasks'
import { buildToolset, type Opening } from './toolset'
import { createSessionCheckpoints } from './checkpoints'
import { maxOutputFromEnv } from '../services/model/capabilities'
import { guardSetup, subagentGuard } from './guard'
import { toolSummaries } from './tool-summaries'
import { autoDecisionEvent, autoModeOptions } from './auto-mode'
import { SessionRecord } from './session-record'
import { startingMode } from './starting-mode'
import { openSessionPeers } from './peer-wiring'
import type { SessionPeers } from './peers'
import type { ModelService } from '../services/model/types'


/** What the runtime builds for one session, before the session: its environment, gate and task list. */
export interface RuntimeSessionParts extends SessionParts {
  /** The session's permission gate, for the status bar and mode switches. */
  gate: PermissionGate
  /** The session's one denial log: what its gates and its unattended answerer refused (`sous -p`'s `permission_denials`). */
  denials: DenialLog
  /** The session's task list as the task panel changes it. */
  userTasks: UserTaskEdits
  /** The ends of the main agent's background work, and (unattended) the turns they start. */
  background: BackgroundNews
  /** The session among the other sessions of this machine (ListAgents, SendMessage across sessions, held messages). */
  peers: SessionPeers
  setMode(mode: PermissionModeName): void
  release(): Promise<void>
}

/**
 * Everything one session needs from its runtime, built bottom-up before the session: a permission
 * gate (with its approval queue), the model, the toolset (built on the first turn), the hooks around
 * the loop and the session, and what frees it all.
 */
export function openSession(parts: RuntimeParts, projectPath: string, sessionId: string): RuntimeSessionParts {
  const { options, models } = parts
  const opening: Opening = {
    projectPath,
    sessionId,
    tools: createToolSession({ cwd: projectPath }),
    preferences: options.preferences?.() ?? {},
    sandboxState: () => parts.sandbox.acquire(projectPath, sessionId),
    reminders: new ReminderQueue(),
    nested: new NestedInstructions(projectPath, new InstructionBudget(), parts.userHome),
  }
  // A session that entered a worktree (EnterWorktree) and was closed there works there again.
  void reenterWorktree(parts.worktrees, projectPath, sessionId, opening.tools.shell)
  // Background work that ends is announced without polling: on the model's next request, or
  // (unattended) as a turn of its own once the session is idle, so `sous -p` can wait for it.
  // Read only once work runs: by then the subagents below exist.
  const background = new BackgroundNews({ reminders: opening.reminders, turns: unattended(options), work: mainBackgroundWork(opening.tools.shell, () => subagents.agents) })
  opening.tools.shell.background.onFinish((shell) => background.push({ notice: shellNotice(shell), stillRelevant: () => !shell.endReported }))
  // The classifier's requests go through the session's metered model (defined below; first called at a tool call).
  const classifierModel = (): Promise<ModelService> => model()
  const { gate, queue, grants, denials, record, close: closeGate } = openGate(parts, opening, classifierModel)
  const checkpoints = createSessionCheckpoints(parts, { projectPath, sessionId, gate })
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
  const { guard, reasoning } = guardSetup(parts, projectPath)
  // Every request of the session — the main agent's, subagents', memory's, compaction's — goes
  // through the spend meter, so all of it counts toward the session's and the project's caps.
  const model = () => models.get(opening.preferences).then((service) => guard.meter.wrap(service))
  const summaries = toolSummaries(options.env, model, !unattended(options))
  // Headless runs have no limit unless one is given (--max-turns), as in Claude Code; the desktop
  // keeps a generous guard that asks whether to go on (a subagent at the guard ends its run).
  const maxTurns = options.maxTurns ?? (unattended(options) ? Infinity : (opening.preferences.turnGuard ?? DEFAULT_TURN_GUARD))
  // The main agent and every subagent defer tools by the same policy (each by its own tools and model).
  const toolSearch = (model: string): ToolSearchPolicy => ({ mode: toolSearchMode(options.env['ENABLE_TOOL_SEARCH']).mode, deferBuiltins: gate.settingsNow().behaviour.deferBuiltinTools === true, contextWindow: contextWindowOf(model) })
  const subagents = createSessionSubagents(parts, {
    projectPath,
    sessionId,
    transcriptPath: transcript,
    projectDataDir: projectDataDir(options.home, projectPath),
    tools: opening.tools,
    preferences: opening.preferences,
    gate,
    queue,
    denials,
    model,
    modelName,
    maxTurns,
    reminders: opening.reminders,
    notify: (end) => background.push(end),
    // Subagents compact as the main agent does: the same window rules, the same task list; a fork's
    // conversation is the main agent's, so the plan comes back for it too.
    compaction: {
      contextWindow: contextWindowFromEnv(options.env),
      autoCompactWindow: () => gate.settingsNow().autoCompactWindow,
      tasks: tasks.access,
      planFile: () => plan.activePlanFile(),
    },
    reasoning,
    toolSearch,
    tasks: tasks.access,
    guard: subagentGuard(guard, sessionId, (event) => options.hub.emit('agent.event', event)),
    ...(summaries && { toolSummaries: summaries }),
  })
  const extensions = openExtensions(parts, opening, gate, queue)
  const peers = openSessionPeers(parts, opening, gate)
  const plan = new PlanMode({
    sessionId,
    plansDir: plansDir(parts.userHome, options.env),
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
  // Scheduled prompts only where the app stays open to fire them (not `sous -p`).
  if (!unattended(options)) void parts.schedule.scheduler.open(sessionId, projectPath)
  const environment: SessionParts['environment'] = {
    hub: options.hub,
    model,
    modelName,
    context: contextSetup({ env: parts.options.env, fileState: opening.tools.fileState, nested: opening.nested, gate, tasks: tasks.access, plan, extensions }),
    toolset: () => buildToolset(parts, opening, { gate, tasks, plan, extensions, subagents, checkpoints, approvals: queue, peers: peers.peers }),
    canUseTool: (tool, input, toolUseId, callOptions) => gate.canUseTool(tool, input, toolUseId, callOptions),
    hooks: loopHooks(gate, taskReminders, (call) => opening.nested.onToolCall(call.tool.name, call.input, opening.tools.shell.cwd)),
    ...extensions.environment,
    lifecycle: {
      promptSubmit: async (prompt) => {
        const submitted = await gate.userPromptSubmit(prompt)
        if (!submitted.blocked && submitted.stopReason === undefined) checkpoints.prompt(prompt)
        if (!submitted.blocked) {
          await news.beforePrompt()
          // Servers still on their way are named, with how to wait for them.
          const connecting = connectingReminder(parts.mcp.peek(projectPath)?.states() ?? [])
          if (connecting) opening.reminders.push(connecting, { source: 'mcp' })
        }
        return submitted
      },
      sessionStart: (source) => gate.sessionStart(source),
      sessionEnd: (reason) => gate.sessionEnd(reason),
      preModelSwitch: (change) => gate.preModelSwitch(change),
      postModelSwitch: (change) => gate.postModelSwitch(change),
    },
    memory: sessionMemory(parts, { grants, model }),
    guard,
    ...(summaries && { toolSummaries: summaries }),
    reasoning,
    ...(maxOutputFromEnv(options.env) !== undefined && { maxTokens: maxOutputFromEnv(options.env) }),
    reminders: opening.reminders,
    maxTurns,
    askToContinue: !unattended(options),
    promptCacheTtl: () => gate.settingsNow().behaviour.promptCacheTtl,
    toolSearch,
    ...(options.onMessage && { onMessage: (message: Message) => options.onMessage?.(sessionId, message) }),
    appendSystemPrompt: options.appendSystemPrompt,
    // A person will look before the first request (the context view) or type it: have the prompt
    // ready. `sous -p` sends its request at once and would only pay for the scheduling.
    prepareOnOpen: !unattended(options),
    homeDir: parts.userHome,
    agents: subagents.agents,
    attach: (session) => {
      record.attach(session)
      subagents.attach(session)
      peers.attach(session)
      background.attach(session)
    },
    taskSnapshot: async () => ({ listId: tasks.access.listId, tasks: (await tasks.access.store.list()).tasks }),
    ...(subagents.basePrompt !== undefined && { basePrompt: subagents.basePrompt }),
  }
  return {
    environment,
    gate,
    denials,
    userTasks: tasks.user,
    background,
    peers: peers.peers,
    setMode: (mode) => {
      if (mode === 'auto' && gate.settingsNow().disableAutoMode) throw new AppError('UNAVAILABLE', 'Auto mode is turned off by disableAutoMode in the settings.')
      const previous = gate.mode
      plan.setMode(mode)
      // Plan mode tells its own start and end (its reminder source); other switches are told here.
      if (mode !== previous && mode !== 'plan' && previous !== 'plan') news.modeChanged(mode)
    },
    mode: () => gate.mode,
    auto: { decisions: () => gate.autoDecisions(), askNextTime: (decisionId, scope) => gate.askNextTime(decisionId, scope), off: () => gate.settingsPeek().disableAutoMode },
    ...(subagents.coordinator && { settled: () => subagents.settled() }),
    // Whether or not a turn ever ran (a session opened and closed unused has no toolset), so the
    // session's state is freed here rather than with the toolset.
    async release() {
      await subagents.team.dispose()
      await peers.release()
      parts.schedule.scheduler.close(sessionId)
      await subagents.agents.dispose()
      // The last call's after-state is what a later rewind compares with: let it land, then stop
      // watching the tree.
      await checkpoints.close()
      closeGate()
      tasks.dispose()
      await opening.tools.dispose()
      await extensions.release()
    },
  }
}

/**
 * The session's answerer, chosen once here (its approval queue, shown in the UI; or the unattended
 * answerer), which the sandbox's network check asks too, and its permission gate. `close` cancels
 * what is pending and unregisters both.
 */
function openGate(
  parts: RuntimeParts,
  opening: Opening,
  classifierModel: () => Promise<ModelService>,
): { gate: PermissionGate; queue: ApprovalAsker; grants: SessionGrants; denials: DenialLog; record: SessionRecord; close(): void } {
  const { options, approvals, network, hookLog, userHome } = parts
  const { projectPath, sessionId, tools } = opening
  const grants = new SessionGrants(projectPath)
  const denials = new DenialLog()
  const answerer = chooseAnswerer(options.answerer, { projectRoot: projectPath, sousHome: options.home, sessionGrants: grants }, denials)
  const queue = answerer.asker
  network.register(sessionId, queue)
  // Only a queue someone answers goes to the UI.
  const forgetQueue = answerer.kind === 'interactive' ? approvals.add(sessionId, answerer.asker) : () => {}
  // The transcript keeps the hooks, the answered approvals and auto mode's reasons (a stored session's timeline shows them).
  const record = new SessionRecord({ sessionId, hub: options.hub, hookLog })
  if (answerer.kind === 'interactive') record.watchApprovals(answerer.asker)
  const transcript = transcriptPath(options.home, projectPath, sessionId)
  const gate = createPermissionGate({
    projectRoot: projectPath,
    cwd: () => tools.shell.cwd,
    sousHome: options.home,
    home: userHome,
    mode: options.permissionModeFlag ?? 'default',
    cliRules: options.cliRules,
    projectTrust: projectTrustOf(options),
    approvals: queue,
    hooks: new HookRunner({ hooks: [], sessionId, transcriptPath: transcript, projectRoot: projectPath, log: hookLog, env: options.env, childEnv: options.childEnv, askModel: parts.models.hookAsk(opening.preferences) }),
    sandbox: opening.sandboxState,
    sessionId,
    transcriptPath: transcript,
    denials,
    onNotice: (notice) => options.hub.emit('agent.event', { type: 'notice', sessionId, agentId: 'main', level: notice.level, message: notice.message }),
    onSandboxUnavailable: ({ reason, unconfined }) => options.hub.emit('agent.event', { type: 'sandbox_unavailable', sessionId, agentId: 'main', reason, unconfined }),
    toolContext: () => ({ fileState: tools.fileState, shell: tools.shell, isReadDenied: (path: string) => gate.isReadDenied(path) }),
    autoMode: autoModeOptions(parts, projectPath, classifierModel),
    onAutoDecision: (decision, origin) => record.autoDecision(autoDecisionEvent(sessionId, decision, origin)),
  })
  // `--permission-mode` wins; else the settings' `defaultMode` (as far as its file may set it), else Settings' choice.
  if (!options.permissionModeFlag) gate.setMode(startingMode(gate.settingsPeek(), opening.preferences.permissionMode ?? options.permissionMode))
  startupMark('gate')
  return {
    gate,
    queue,
    grants,
    denials,
    record,
    close() {
      gate.abortPending()
      record.dispose()
      network.forget(sessionId)
      forgetQueue()
    },
  }
}


/**
 * The gate's Stop and PostToolUse hooks, as the loop calls them. What the hooks after a call say
 * reaches the model with its next request; `continue: false` ends the turn. The task reminders
 * learn here when the model used a task tool and when it ended a turn.
 */
function loopHooks(gate: PermissionGate, taskReminders: TaskReminders, touched: (call: ToolCallInfo) => string | undefined): QueryHooks {
  return {
    onStop: (info) => {
      taskReminders.turnEnded()
      return gate.stop(info)
    },
    runsPostToolUseHooks: () => gate.hasPostToolUseHooks(),
    // Claude Code fires PostToolUseFailure instead of PostToolUse when the call failed.
    postToolUse: async (call, result) => {
      if (TASK_TOOLS.has(call.tool.name)) taskReminders.touched()
      const event = result.isError ? 'PostToolUseFailure' : 'PostToolUse'
      const outcome = result.isError
        ? await gate.postToolUseFailure(call.tool, call.input, resultText(result.content), call.toolUseId)
        : await gate.postToolUse(call.tool, call.input, result, call.toolUseId)
      const feedback = outcome.additionalContext && `${event} hook feedback on the ${call.tool.name} call ${call.toolUseId}:\n${outcome.additionalContext}`
      // The first touch below a folder with its own CLAUDE.md loads it (as the hook's news does, with the next request).
      const context = [feedback, result.isError ? undefined : touched(call)].filter(Boolean).join('\n\n')
      return { ...(context && { additionalContext: context }), ...(outcome.stopReason !== undefined && { stopReason: outcome.stopReason }) }
    },
  }
}
