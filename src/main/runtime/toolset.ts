import type { PlanMode } from '../agents/plan-mode'
import type { NestedInstructions } from '../context/nested-instructions'
import type { ReminderQueue } from '../context/reminders'
import type { PermissionGate } from '../governance/gate/gate'
import { createBashClassifier } from '../governance/gate/bash-preview'
import type { PtyProcess } from '../pty/types'
import type { Toolset } from '../session/session'
import type { BashSandboxState } from '../tools/bash-sandbox'
import { createCoreTools } from '../tools/registry'
import { askUserQuestionTool } from '../tools/ask-user-question'
import { webSearchTool } from '../tools/web-search'
import type { ApprovalAsker } from '../governance/approvals/queue'
import { questionsThrough } from './questions'
import type { ToolSession } from '../tools/tool-session'
import type { ExtensionParts } from './extension-parts'
import type { RuntimePreferences } from './options'
import type { RuntimeParts } from './shared'
import { createWorktreeControl } from './worktree-tools'
import type { SessionSubagents } from './subagents'
import type { createSessionTasks } from './tasks'
import type { CheckpointRecorder } from '../checkpoints/recorder'
import type { PeerControl } from '../tools/types'

/** One session being opened: where it works and what it owns. */
export interface Opening {
  projectPath: string
  sessionId: string
  tools: ToolSession
  preferences: RuntimePreferences
  /** Started on the first Bash call, not with the session: most turns never need it. */
  sandboxState(): Promise<BashSandboxState | undefined>
  /** News for the model (hook context, finished background commands), sent with its next request. */
  reminders: ReminderQueue
  /** Subfolder CLAUDE.md files, loaded on the main agent's first touch below them. */
  nested: NestedInstructions
}

/** The core tools with the syntax-tree Bash classifier, the sandbox and the small model WebFetch asks, then the extensions' tools. */
export async function buildToolset(
  parts: RuntimeParts,
  opening: Opening,
  session: { gate: PermissionGate; tasks: ReturnType<typeof createSessionTasks>; plan: PlanMode; extensions: ExtensionParts; subagents: SessionSubagents; checkpoints: CheckpointRecorder; approvals: ApprovalAsker; peers: PeerControl },
): Promise<Toolset> {
  const { options } = parts
  const { tools, sessionId } = opening
  const { gate, tasks, plan, extensions, subagents, checkpoints } = session
  const questions = questionsThrough(session.approvals, sessionId)
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
    webSearch: parts.models.webSearch(opening.preferences),
    tasks: tasks.access,
    // Every agent's mutating calls are checkpointed by the session's one recorder.
    checkpoints,
    bashOutputMaxChars: () => gate.settingsNow().behaviour.bashOutputMaxChars,
    // The lead and its teammates reach the one team of the session.
    team: subagents.team,
    // Every agent reaches the other sessions of this machine (a subagent's send goes out under the session's address).
    peers: session.peers,
    ...(onPtySpawn && { onPtySpawn: (terminal: PtyProcess, command: string) => onPtySpawn(sessionId, terminal, command) }),
  }
  const context = {
    ...shared,
    fileState: tools.fileState,
    shell: tools.shell,
    isReadDenied: (path: string) => gate.isReadDenied(path),
    planMode: plan,
    questions,
    agents: subagents.agents,
    // The main agent's alone: subagents end with their task, a schedule would outlive them.
    ...(session.approvals.attended && { schedule: parts.schedule.access(sessionId, session.approvals) }),
    // The main agent's alone: a subagent moving the session's directory would move its parent's.
    worktree: createWorktreeControl({ service: parts.worktrees, projectPath: opening.projectPath, sessionId, shell: tools.shell }),
  }
  const builtIn = createCoreTools({ pty: options.pty, classify: classifier.classify, inspect: classifier.inspect, sandbox: opening.sandboxState })
  // As in Claude Code, AskUserQuestion is offered only where someone answers (not in `sous -p`).
  // A bare deny rule (`WebSearch`, `AskUserQuestion`) removes the tool from what the model is offered, as in Claude Code.
  const deniedOutright = (name: string) => gate.settingsNow().rules.deny.some((rule) => rule.parsed.kind === 'tool' && rule.parsed.tool === name)
  const core = [...builtIn, webSearchTool, ...(questions.attended ? [askUserQuestionTool] : [])].filter((tool) => !(tool === webSearchTool || tool === askUserQuestionTool) || !deniedOutright(tool.name))
  const withExtensions = extensions.toolset(core, () => context)
  // Subagents get the MCP tools too (judged by their own gates); skills stay the main agent's.
  const forAgents = { ...shared, ...(withExtensions.context.mcp && { mcp: withExtensions.context.mcp }) }
  return {
    tools: await subagents.mainTools(withExtensions.tools, forAgents),
    currentTools: () => subagents.withAgentTools(withExtensions.currentTools()),
    context: { ...context, ...withExtensions.context },
  }
}
