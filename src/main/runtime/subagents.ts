import { agentWorktreeName } from '../worktrees/names'
import type { AgentWorktrees } from '../agents/session-agents'
import type { PermissionModeName } from '../../shared/ipc/contract'
import { loadAgentCatalog } from '../agents/agent-files'
import coordinatorPrompt from '../agents/coordinator.prompt'
import type { ReminderQueue } from '../context/reminders'
import { SessionAgents } from '../agents/session-agents'
import type { SubagentCompaction } from '../agents/subagent-context'
import type { DenialLog } from '../governance/approvals/denials'
import type { ApprovalAsker } from '../governance/approvals/queue'
import { SessionGrants } from '../governance/decide/session'
import { createPermissionGate, type PermissionGate } from '../governance/gate/gate'
import { HookRunner } from '../governance/hooks/runner'
import { readProjectConfig } from '../governance/trust/project-config'
import { isPartTrusted } from '../governance/trust/trust'
import type { QueryResult } from '../engine/types'
import type { ModelService } from '../services/model/types'
import type { FileStateCache } from '../tools/file-state'
import type { ShellState } from '../tools/shell/shell-state'
import type { AnyTool, SubagentGrants, ToolContext } from '../tools/types'
import { projectTrustOf } from './options'
import type { SessionHandle } from '../session/session'
import type { RuntimeParts } from './shared'
import { TurnFeed } from '../session/turn-feed'
import { AgentToolList, MainSessionLink } from './subagent-parts'
import { notificationTurnText, taskNotificationText } from '../context/task-notification'
import type { BackgroundEnd } from './background-news'
import type { RequestGuard } from '../engine/guard'
import type { SummarizeCall } from '../engine/tool-summary'
import type { ToolSearchPolicy } from '../engine/deferred-tools'
import type { ReasoningPreference } from '../services/model/capabilities'
import { SessionTeam } from '../agents/team/session-team'
import { teamsDir } from '../store/teams/team-paths'
import type { TaskListAccess } from '../tools/types'
import type { ApprovalAsker as Asker } from '../governance/approvals/queue'
import { LeadInbox } from './lead-inbox'

/** One session's subagents as the session environment wires them. */
export interface SessionSubagents {
  agents: SessionAgents
  /** The session's agent team (none until TeamCreate): teammates, mailboxes, the lead's inbox. */
  team: SessionTeam
  /** Coordinator mode: the main agent directs workers only. */
  coordinator: boolean
  /** The main agent's instructions in coordinator mode. */
  basePrompt?: string
  /**
   * The main agent's tools from the core tools: plus Agent (its description lists this session's
   * agent types, read now) and SendMessage; in coordinator mode only Agent, SendMessage and TaskStop.
   * `shared` is what every agent's tools share (task list, small model, Agent terminal feed).
   */
  mainTools(core: AnyTool[], shared: Partial<ToolContext>): Promise<AnyTool[]>
  /**
   * The same for a later list of the session's tools (MCP servers come and go): Agent and
   * SendMessage added, the coordinator's filter applied. The same array back for the same list.
   */
  withAgentTools(list: AnyTool[]): AnyTool[]
  attach(session: SessionHandle): void
  /**
   * Resolves once the coordinator's workers have all reported and their turns ended, with the
   * results of the turns their reports started since the last call.
   */
  settled(): Promise<QueryResult[]>
}

/** What the wiring needs of the session being opened. */
export interface SubagentSession {
  projectPath: string
  sessionId: string
  transcriptPath: string
  projectDataDir: string
  tools: { shell: ShellState; fileState: FileStateCache }
  preferences: { coordinator?: boolean }
  gate: PermissionGate
  queue: ApprovalAsker
  /** The session's denial log: each subagent's gate records there too. */
  denials: DenialLog
  model(): Promise<ModelService>
  modelName: string
  maxTurns: number
  /** The session's reminder queue: a finished background agent is announced through it (without `notify`). */
  reminders: ReminderQueue
  /** Where a finished background agent of the main agent is announced (the session's background news). */
  notify?(end: BackgroundEnd): void
  /** How subagents compact their conversations. */
  compaction?: SubagentCompaction
  /** Thinking and effort (the session's preference). */
  reasoning?: ReasoningPreference
  /** The session's guard for one subagent's run. */
  guard?(agent: { agentId: string; parentToolUseId?: string }): RequestGuard
  /** The small model's summaries of long-running calls, as the main agent's calls get them. */
  toolSummaries?: { summarize: SummarizeCall; afterMs: number }
  /** The session's tool-search policy for a model: subagents defer tools as the main agent does. */
  toolSearch?(modelName: string): ToolSearchPolicy
  /** The session's task list: a team's idle teammates claim from it, under their names (`aliases`). */
  tasks?: TaskListAccess & { aliases?: Map<string, string> }
}

/**
 * Builds the session's {@link SessionAgents} over parts built first (the agent tool list, the link
 * to the session that arrives later, the coordinator's turn feed): each subagent gets a permission gate of its own over
 * the session's settings and hooks (fresh session grants; its asks go to the session's approval
 * queue naming it; its hooks' input carries `agent_id` and `agent_type`). A finished background
 * agent is announced to the main agent with its next request — in coordinator mode, as a user
 * message that starts a turn of its own once the session is idle.
 */
export function createSessionSubagents(parts: RuntimeParts, session: SubagentSession): SessionSubagents {
  const { options } = parts
  const coordinator = options.coordinator ?? session.preferences.coordinator === true
  const toolList = new AgentToolList(coordinator)
  const main = new MainSessionLink(options.hub)
  const feed = new TurnFeed(() => main.handle)
  const agents = new SessionAgents({
    sessionId: session.sessionId,
    projectRoot: session.projectPath,
    projectDataDir: session.projectDataDir,
    transcriptPath: session.transcriptPath,
    userHome: parts.userHome,
    env: options.env,
    catalog: () => toolList.catalog,
    model: session.model,
    maxTurns: session.maxTurns,
    ...(session.reasoning && { reasoning: session.reasoning }),
    ...(session.guard && { guard: session.guard }),
    ...(session.toolSummaries && { toolSummaries: session.toolSummaries }),
    ...(session.toolSearch && { toolSearch: session.toolSearch }),
    main: { model: () => session.modelName, mode: () => session.gate.mode, tools: () => toolList.all, shell: session.tools.shell, fileState: session.tools.fileState },
    openGate: (agent, mode, state) => openSubagentGate(parts, session, agent, mode, state),
    sharedContext: () => toolList.shared,
    emit: (event) => options.hub.emit('agent.event', event),
    emitMain: (event) => main.emit(event),
    notifyMain: (notice, stillRelevant) => {
      // A coordinator hears from its workers as user messages; otherwise the session's background
      // news delivers it (the next request, or unattended a turn of its own), unless the main
      // agent learned the end first.
      if (coordinator) feed.push(notificationTurnText([taskNotificationText(notice)]))
      else if (session.notify) session.notify({ notice, stillRelevant })
      else session.reminders.push(taskNotificationText(notice), { source: 'background-agent', stillRelevant })
    },
    backgroundByDefault: () => session.gate.settingsNow().behaviour.agentsInBackground === true,
    ...(options.agentForegroundLimitMs !== undefined && { foregroundLimitMs: options.agentForegroundLimitMs }),
    coordinator,
    ...(session.compaction && { compaction: session.compaction }),
    worktrees: agentWorktrees(parts, session.projectPath, session.sessionId),
  })
  const inbox = new LeadInbox(session.reminders, () => main.handle)
  const team = new SessionTeam({
    sessionId: session.sessionId,
    teamsRoot: teamsDir(parts.userHome, options.env),
    agents,
    ...(session.tasks && { tasks: session.tasks }),
    queue: session.queue,
    toLead: (text) => inbox.push(text),
    emit: (event) => main.emit(event),
    leadMode: () => session.gate.mode,
  })
  return {
    agents,
    team,
    coordinator,
    ...(coordinator && { basePrompt: coordinatorPrompt }),
    mainTools: (core, shared) =>
      toolList.load(core, shared, () => loadAgentCatalog({ projectRoot: session.projectPath, userHome: parts.userHome, projectTrusted: projectAgentsTrusted(parts, session.projectPath) }), {
        backgroundByDefault: session.gate.settingsNow().behaviour.agentsInBackground === true,
      }),
    withAgentTools: (list) => toolList.withAgentTools(list),
    attach: (handle) => main.attach(handle),
    async settled() {
      // A report's turn may start new workers, and a worker may end while a report's turn runs.
      for (;;) {
        await feed.drained()
        await main.handle?.whenIdle()
        if (!agents.busy && feed.pending === 0) return feed.takeResults()
        await agents.whenIdle()
      }
    },
  }
}

/** Whether the project's own agent files may be used: unattended runs assume trust, as Claude Code's `-p`. */
function projectAgentsTrusted(parts: RuntimeParts, projectPath: string): boolean {
  if (projectTrustOf(parts.options) === 'assume') return true
  return isPartTrusted(projectPath, parts.options.home, 'extensions', readProjectConfig(projectPath).fingerprints.extensions)
}

/** A subagent's gate: the session's settings, hooks and sandbox; its own mode, grants and Bash state. */
function openSubagentGate(
  parts: RuntimeParts,
  session: SubagentSession,
  agent: { id: string; type: string; description: string },
  mode: PermissionModeName,
  state: { shell: SubagentSession['tools']['shell']; fileState: SubagentSession['tools']['fileState']; parentToolUseId?: string; grants?: SubagentGrants; asker?: (grants: SessionGrants) => Asker },
): PermissionGate {
  const { options, hookLog, userHome } = parts
  const grants = new SessionGrants(session.projectPath)
  // Its own grants (a forked skill's allowed-tools), never cleared by a prompt: they last as long as it does.
  const grantErrors = state.grants ? grants.addForTurn(state.grants.rules, state.grants.file) : []
  const gate: PermissionGate = createPermissionGate({
    projectRoot: session.projectPath,
    cwd: () => state.shell.cwd,
    sousHome: options.home,
    home: userHome,
    mode,
    cliRules: options.cliRules,
    projectTrust: projectTrustOf(options),
    // A teammate's asks bubble to the lead through the mailboxes (agents/team); other subagents ask the queue.
    approvals: state.asker ? state.asker(grants) : { attended: session.queue.attended, sessionGrants: grants, request: (request) => session.queue.request({ ...request, grants }) },
    agent,
    hooks: new HookRunner({
      hooks: [],
      sessionId: session.sessionId,
      transcriptPath: session.transcriptPath,
      projectRoot: session.projectPath,
      log: hookLog,
      env: options.env,
      childEnv: options.childEnv,
      inputFields: { agent_id: agent.id, agent_type: agent.type },
      askModel: parts.models.hookAsk(),
    }),
    sandbox: () => parts.sandbox.acquire(session.projectPath, session.sessionId),
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    denials: session.denials,
    onNotice: (notice) =>
      options.hub.emit('agent.event', {
        type: 'notice',
        sessionId: session.sessionId,
        agentId: agent.id,
        ...(state.parentToolUseId !== undefined && { parentToolUseId: state.parentToolUseId }),
        level: notice.level,
        message: notice.message,
      }),
    toolContext: () => ({ fileState: state.fileState, shell: state.shell, isReadDenied: (path: string) => gate.isReadDenied(path) }),
    // Auto mode: the session's classifier, log and patterns, judging against the user's prompts.
    autoModeShared: { auto: session.gate.autoMode, origin: { agentId: agent.id, ...(state.parentToolUseId !== undefined && { parentToolUseId: state.parentToolUseId }) } },
  })
  for (const error of grantErrors) options.hub.emit('agent.event', { type: 'notice', sessionId: session.sessionId, agentId: agent.id, ...(state.parentToolUseId !== undefined && { parentToolUseId: state.parentToolUseId }), level: 'warning', message: `${state.grants!.file}: allowed-tools: ${error}` })
  return gate
}

/**
 * Worktrees for Agent calls with `isolation: "worktree"`: one per agent (`agent-<id>`, owned by
 * the session), removed after the run when the agent changed nothing, else kept and named in the
 * result (see agents/session-agents.ts).
 */
function agentWorktrees(parts: RuntimeParts, projectPath: string, sessionId: string): AgentWorktrees {
  return {
    async create(agentId) {
      const available = await parts.worktrees.availability(projectPath)
      if (!available.available) throw new Error(available.reason === 'not-a-repository' ? 'Cannot create agent worktree: not in a git repository.' : `Cannot create agent worktree: ${available.message}`)
      const { info } = await parts.worktrees.create(projectPath, { name: agentWorktreeName(agentId), owner: 'agent', sessionId, agentId }).catch((error: unknown) => {
        throw new Error(`Cannot create agent worktree: ${error instanceof Error ? error.message : String(error)}`)
      })
      return { path: info.path, branch: info.branch }
    },
    async settle(path) {
      const loss = await parts.worktrees.loss(projectPath, path)
      if (loss.uncommitted.length > 0 || loss.commits.length > 0) return 'kept'
      const removed = await parts.worktrees.remove(projectPath, path, { owner: sessionId })
      return removed.removed ? 'removed' : 'kept'
    },
  }
}
