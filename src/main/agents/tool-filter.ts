import type { AnyTool } from '../tools/types'
import { CUSTOM_AGENT_DENIED_TOOLS, deniedToCustomAgent, type AgentDefinition } from './definitions'

export { CUSTOM_AGENT_DENIED_TOOLS } from './definitions'

/**
 * Tools no subagent gets: each belongs to the main agent's place in the conversation with the user
 * (asking the user, plan mode, stopping background work, messaging workers, leading a team — a
 * teammate gets SendMessage back, see agents/team — and scheduling prompts into the session: a
 * subagent ends with its task, a schedule would outlive it). `Agent` is among them
 * unless the type asks for it by name in its `tools` (nesting).
 */
export const NO_SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'SendMessage', 'ListAgents', 'EnterPlanMode', 'ExitPlanMode', 'AskUserQuestion', 'TaskStop', 'TeamCreate', 'TeamDelete', 'CronCreate', 'CronDelete', 'CronList'])

/** What the subagent is told when its file named tools it does not get (empty when it named none). */
export function withheldToolsNote(definition: Pick<AgentDefinition, 'source' | 'tools'>): string {
  const withheld = deniedToCustomAgent(definition)
  if (withheld.length === 0) return ''
  return `Your agent file lists ${withheld.join(', ')}, but custom agents cannot use ${withheld.length === 1 ? 'it' : 'them'}: ${withheld.length === 1 ? 'it acts' : 'they act'} on the main conversation with the user, which only the main agent leads. ${withheld.length === 1 ? 'It is' : 'They are'} not among your tools; say in your final report what you would have needed instead.`
}

/** What a background agent may use: tools that never stop to wait for the user themselves. */
const BACKGROUND_TOOLS: ReadonlySet<string> = new Set([
  'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'NotebookEdit',
  'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TaskOutput', 'Skill', 'Agent',
])

/**
 * A subagent's tools, filtered in layers from its parent's: the tools no subagent gets, for a custom
 * agent the tools no agent file may bring back ({@link CUSTOM_AGENT_DENIED_TOOLS}), then the type's
 * own `tools` (an allow-list) and `disallowedTools`, then, for a background agent, the
 * tools that need no user. MCP tools (`mcp__…`) pass the background layer: they are judged by the
 * permission gate like any call. The parent's order is kept.
 */
export function subagentTools(parentTools: readonly AnyTool[], definition: AgentDefinition, options: { background: boolean }): AnyTool[] {
  const wanted = definition.tools ? new Set(definition.tools) : undefined
  const nesting = wanted?.has('Agent') === true
  const custom = definition.source !== 'built-in'
  return parentTools.filter((tool) => {
    const name = tool.name
    if (custom && CUSTOM_AGENT_DENIED_TOOLS.has(name)) return false
    if (NO_SUBAGENT_TOOLS.has(name) && !(name === 'Agent' && nesting)) return false
    if (wanted && !wanted.has(name)) return false
    if (definition.disallowedTools.includes(name)) return false
    if (options.background && !BACKGROUND_TOOLS.has(name) && !name.startsWith('mcp__')) return false
    return true
  })
}
