import { BUILT_IN_AGENTS, describeTools, type AgentCatalog } from '../agents/definitions'
import type { EventHub } from '../base/event-hub'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { SessionHandle } from '../session/session'
import { createAgentTool } from '../tools/agent'
import { listAgentsTool } from '../tools/list-agents'
import { sendMessageTool } from '../tools/send-message'
import { STRUCTURED_OUTPUT_TOOL, structuredOutputTool } from '../tools/structured-output'
import { teamCreateTool } from '../tools/team-create'
import { teamDeleteTool } from '../tools/team-delete'
import type { AnyTool, ToolContext } from '../tools/types'

/**
 * What the main agent may use in coordinator mode (Claude Code's coordinator set, plus the team
 * tools): start, message and stop workers, lead or disband a team of them, and hand back the final
 * result as data (StructuredOutput, which ends the turn).
 */
const COORDINATOR_TOOLS = new Set(['Agent', 'SendMessage', 'TaskStop', 'TeamCreate', 'TeamDelete', STRUCTURED_OUTPUT_TOOL])

/**
 * The session's agent tools, built before the subagents that read them: the agent types (the
 * catalog, read with the session's first toolset), the Agent tool describing them, the whole list
 * subagents choose from, and what every agent's tools share. Until the first toolset they are the
 * built-in types, no tools and nothing shared.
 */
export class AgentToolList {
  private catalogNow: AgentCatalog = { agents: [...BUILT_IN_AGENTS], problems: [] }
  private allNow: AnyTool[] = []
  private sharedNow: Partial<ToolContext> = {}
  private agentTool: AnyTool | undefined
  private decorated: { from: AnyTool[]; tools: AnyTool[] } | undefined

  constructor(private readonly coordinator: boolean) {}

  /** The session's agent types. */
  get catalog(): AgentCatalog {
    return this.catalogNow
  }

  /** Every tool of the session (Agent and SendMessage included): what subagents choose from. */
  get all(): AnyTool[] {
    return this.allNow
  }

  /** What every agent's tools share (task list, small model, Agent terminal feed). */
  get shared(): Partial<ToolContext> {
    return this.sharedNow
  }

  /** The main agent's first tools: the catalog is read now, the Agent tool lists its types (and says whether agents run in the background unless told). */
  async load(core: AnyTool[], shared: Partial<ToolContext>, readCatalog: () => Promise<AgentCatalog>, options: { backgroundByDefault?: boolean } = {}): Promise<AnyTool[]> {
    this.sharedNow = shared
    this.catalogNow = await readCatalog()
    this.agentTool = createAgentTool(
      this.catalogNow.agents.map((agent) => ({ name: agent.name, description: agent.description, tools: describeTools(agent) })),
      { fork: !this.coordinator, backgroundByDefault: options.backgroundByDefault === true },
    )
    return this.withAgentTools(core)
  }

  /** A list of the session's tools with Agent and SendMessage added, the coordinator's filter applied; the same array back for the same list. */
  withAgentTools(list: AnyTool[]): AnyTool[] {
    if (this.decorated?.from === list) return this.decorated.tools
    // TeamCreate and TeamDelete are the lead's (subagents never get them: see agents/tool-filter.ts).
    const all = this.agentTool ? [...list, this.agentTool, sendMessageTool, listAgentsTool, teamCreateTool, teamDeleteTool] : [...list]
    // Subagents choose from the whole list; the coordinator itself keeps only its own set, with the
    // final-output tool that is its alone (a worker's final text is its result already).
    this.allNow = all
    this.decorated = { from: list, tools: this.coordinator ? [...all, structuredOutputTool].filter((tool) => COORDINATOR_TOOLS.has(tool.name)) : all }
    return this.decorated.tools
  }
}

/**
 * The session the subagents serve. It is built over their parts, so it arrives afterwards
 * (`attach`, from the session's constructor); until then the main agent's events go straight to the hub.
 */
export class MainSessionLink {
  private session: SessionHandle | undefined

  constructor(private readonly hub: EventHub) {}

  attach(session: SessionHandle): void {
    this.session = session
  }

  /** The session, once attached. */
  get handle(): SessionHandle | undefined {
    return this.session
  }

  /** An event of the main agent: through the session (its transcript too) once attached. */
  emit(event: AgentEvent): void {
    if (this.session) this.session.emit(event)
    else this.hub.emit('agent.event', event)
  }
}
