import type { AnyTool } from '../tools/types'
import type { AgentDefinition } from './definitions'

/**
 * Tools no subagent gets: each belongs to the main agent's place in the conversation with the user
 * (asking the user, plan mode, stopping background work, messaging workers, leading a team — a
 * teammate gets SendMessage back, see agents/team — and scheduling prompts into the session: a
 * subagent ends with its task, a schedule would outlive it). `Agent` is among them
 * unless the type asks for it by name in its `tools` (nesting).
 */
export const NO_SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'SendMessage', 'ListAgents', 'EnterPlanMode', 'ExitPlanMode', 'AskUserQuestion', 'TaskStop', 'TeamCreate', 'TeamDelete', 'CronCreate', 'CronDelete', 'CronList'])

/** What a background agent may use: tools that never stop to wait for the user themselves. */
const BACKGROUND_TOOLS: ReadonlySet<string> = new Set([
  'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'NotebookEdit',
  'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TaskOutput', 'Skill', 'Agent',
])

/**
 * A subagent's tools, filtered in layers from its parent's: the tools no subagent gets, then the
 * type's own `tools` (an allow-list) and `disallowedTools`, then, for a background agent, the
 * tools that need no user. MCP tools (`mcp__…`) pass the background layer: they are judged by the
 * permission gate like any call. The parent's order is kept.
 */
export function subagentTools(parentTools: readonly AnyTool[], definition: AgentDefinition, options: { background: boolean }): AnyTool[] {
  const wanted = definition.tools ? new Set(definition.tools) : undefined
  const nesting = wanted?.has('Agent') === true
  return parentTools.filter((tool) => {
    const name = tool.name
    if (NO_SUBAGENT_TOOLS.has(name) && !(name === 'Agent' && nesting)) return false
    if (wanted && !wanted.has(name)) return false
    if (definition.disallowedTools.includes(name)) return false
    if (options.background && !BACKGROUND_TOOLS.has(name) && !name.startsWith('mcp__')) return false
    return true
  })
}
