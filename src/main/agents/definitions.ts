import type { PermissionModeName } from '../../shared/ipc/contract'
import explorePrompt from './explore.prompt'
import generalPurposePrompt from './general-purpose.prompt'
import planPrompt from './plan.prompt'

/**
 * Agent types: the built-in ones (general-purpose, Explore, Plan) and custom agents from
 * `.claude/agents/*.md` (Claude Code's format; see `agent-files.ts`). A type says what a
 * subagent is told (its system prompt) and which tools and model it gets.
 */

/** Where a type comes from. On a name clash the user's file wins over the project's. */
export type AgentSource = 'built-in' | 'user' | 'project'

/** One agent type. */
export interface AgentDefinition {
  /** The `subagent_type` that selects it. */
  name: string
  /** When to use it (the Agent tool's description lists it). */
  description: string
  source: AgentSource
  /** The file it was read from (custom agents). */
  file?: string
  /** Its system prompt. */
  prompt: string
  /** Tool names it may use (`undefined`: every tool the other layers allow). `Agent` here allows nesting. */
  tools?: string[]
  /** Tool names it may not use. */
  disallowedTools: string[]
  /** `inherit` (the default), an alias (`sonnet`, `opus`, `haiku`) or a model id. */
  model?: string
  /** The mode its calls are judged in (never looser than its parent's; see `mode.ts`). */
  permissionMode?: PermissionModeName
  /** Model requests allowed per run (default: the session's limit). */
  maxTurns?: number
  /** Leave CLAUDE.md files and the git line out of its prompt (Explore and Plan, as in Claude Code: fast and lean). */
  lean?: boolean
}

/** The type an Agent call without `subagent_type` starts. */
export const DEFAULT_AGENT_TYPE = 'general-purpose'

/** The `subagent_type` of a fork (a copy of the calling agent with its conversation; see `fork.ts`). */
export const FORK_AGENT_TYPE = 'fork'

/** Tools of the read-only types. Their calls are judged in plan mode too, so a command that writes is refused. */
const READ_ONLY_TOOLS = ['Bash', 'Read', 'Glob', 'Grep', 'WebFetch', 'TaskOutput']

/** The built-in types, in the order the Agent tool lists them. */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'general-purpose',
    description:
      'General-purpose agent for researching complex questions, searching for code, and carrying out multi-step tasks. Use it when a search may take several tries or a task has several steps.',
    source: 'built-in',
    prompt: generalPurposePrompt,
    disallowedTools: [],
  },
  {
    name: 'Explore',
    description:
      'Fast agent for exploring codebases: finding files by pattern, searching code for keywords, answering questions about how the code works. Say how thorough it should be: "quick", "medium" or "very thorough". Read-only.',
    source: 'built-in',
    prompt: explorePrompt,
    tools: READ_ONLY_TOOLS,
    disallowedTools: [],
    permissionMode: 'plan',
    lean: true,
  },
  {
    name: 'Plan',
    description:
      'Software architect agent for designing an implementation plan: it studies the code and returns step-by-step plans, the critical files and the trade-offs. Read-only.',
    source: 'built-in',
    prompt: planPrompt,
    tools: READ_ONLY_TOOLS,
    disallowedTools: [],
    permissionMode: 'plan',
    // Like Explore (Claude Code leaves both out for these two): it reads the code it plans over.
    lean: true,
  },
]

/** Every type a session offers, and what could not be loaded. */
export interface AgentCatalog {
  agents: AgentDefinition[]
  problems: AgentFileProblem[]
}

/** A file that could not be loaded, or a field that was ignored; never fatal. */
export interface AgentFileProblem {
  file: string
  /** `error`: the file was skipped; `warning`: it loaded without what the message names. */
  level: 'error' | 'warning'
  message: string
}

/** The type named `name` (exact, then case-insensitive); undefined when there is none. */
export function findAgent(catalog: AgentCatalog, name: string): AgentDefinition | undefined {
  return catalog.agents.find((agent) => agent.name === name) ?? catalog.agents.find((agent) => agent.name.toLowerCase() === name.toLowerCase())
}

/**
 * The extra layer for custom (user-written) agents, Claude Code's `CUSTOM_AGENT_DISALLOWED_TOOLS`:
 * tools an agent file never gets, whatever its `tools` list says and whatever exception a built-in
 * type may have. A repository's agent file is untrusted text, and each of these acts on the main
 * conversation the agent does not own — leading or disbanding a team, scheduling prompts into the
 * session, entering or leaving plan mode (approving its own plan), asking the user, stopping
 * background work, messaging other agents. (`Agent` is not here: naming it lets a type nest.)
 */
export const CUSTOM_AGENT_DENIED_TOOLS: ReadonlySet<string> = new Set(['TeamCreate', 'TeamDelete', 'CronCreate', 'CronDelete', 'CronList', 'EnterPlanMode', 'ExitPlanMode', 'AskUserQuestion', 'TaskStop', 'SendMessage'])

/** The tools a custom agent's `tools` names that the custom layer withholds (none for a built-in type). */
export function deniedToCustomAgent(definition: Pick<AgentDefinition, 'source' | 'tools'>): string[] {
  if (definition.source === 'built-in') return []
  return (definition.tools ?? []).filter((name) => CUSTOM_AGENT_DENIED_TOOLS.has(name))
}

/** How the Agent tool describes a type's tools. */
export function describeTools(definition: AgentDefinition): string {
  // The tools the custom layer withholds are not offered to the caller either (see agents/tool-filter).
  const withheld = deniedToCustomAgent(definition)
  const allowed = definition.tools ? definition.tools.filter((name) => !withheld.includes(name)).join(', ') || 'No tools' : 'All tools'
  const denied = definition.disallowedTools.length > 0 ? ` except ${definition.disallowedTools.join(', ')}` : ''
  return `${allowed}${denied}${definition.permissionMode === 'plan' ? ' (read-only)' : ''}`
}
