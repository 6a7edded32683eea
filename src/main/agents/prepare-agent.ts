import type { PermissionModeName } from '../../shared/ipc/contract'
import { buildSystemPrompt } from '../context/system-prompt'
import { resolveModelName } from '../services/model/aliases'
import type { Message, TextBlock, ToolSchema } from '../services/model/types'
import type { FileStateCache } from '../tools/file-state'
import type { AgentCall, AnyTool, CallOrigin } from '../tools/types'
import type { AgentMake } from './agent-record'
import { DEFAULT_AGENT_TYPE, findAgent, type AgentCatalog } from './definitions'
import { forkMessages } from './fork'
import { subagentMode } from './subagent-mode'
import { subagentTools, withheldToolsNote } from './tool-filter'

/** What an agent's make depends on besides the call: the session, and the agent that calls. */
export interface PrepareContext {
  catalog: AgentCatalog
  /** Where `ANTHROPIC_DEFAULT_*_MODEL` come from. */
  env: Record<string, string | undefined>
  /** Every tool of the session: subagents' tools are filtered from these. */
  sessionTools: readonly AnyTool[]
  /** The session's limit on model requests per run. */
  maxTurns: number
  projectRoot: string
  userHome: string
  caller: {
    /** The model the caller runs on (`inherit` means it). */
    model: string
    mode: PermissionModeName
    /** The caller's own tools (a fork keeps exactly these, for the cache). */
    tools: readonly AnyTool[]
    fileState: FileStateCache
    /** The caller's working directory (where the new agent's commands start). */
    cwd: string
  }
}

/** A subagent ready to start: its make (less its place in the tree) and the conversation it starts from. */
export interface Prepared {
  make: Omit<AgentMake, 'id' | 'parentAgentId' | 'parentToolUseId' | 'depth'>
  messages: Message[]
  cwd: string
  /** A fork: the parent's request it repeats, as the API counted it (its compaction starts from that figure). */
  counted?: { promptTokens: number; messages: Message[]; system: TextBlock[]; tools: ToolSchema[] }
}

/**
 * Prepares an agent of a named type: its definition, model (the call's alias, else the type's,
 * else the caller's), mode (never looser than the caller's), tools in layers, system prompt, and
 * a fresh conversation holding only the prompt. An unknown type is an error naming the known ones.
 */
export async function prepareTyped(call: AgentCall, background: boolean, context: PrepareContext): Promise<Prepared | { error: string }> {
  const type = call.subagent_type?.trim() || DEFAULT_AGENT_TYPE
  const definition = findAgent(context.catalog, type)
  if (!definition) {
    return { error: `There is no agent type "${type}". Available types: ${context.catalog.agents.map((agent) => agent.name).join(', ')}.` }
  }
  const wanted = call.model ?? (definition.model && definition.model !== 'inherit' ? definition.model : undefined)
  const model = wanted ? resolveModelName(wanted, context.env) : context.caller.model
  const { caller } = context
  // A custom agent whose file names tools the custom layer withholds is told, so it does not plan around them.
  const withheld = withheldToolsNote(definition)
  const base = withheld ? `${definition.prompt}\n\n${withheld}` : definition.prompt
  const system = await buildSystemPrompt({ cwd: caller.cwd, projectRoot: context.projectRoot, homeDir: context.userHome, base, lean: definition.lean === true })
  return {
    make: {
      type: definition.name,
      description: call.description.trim(),
      fork: false,
      model,
      mode: subagentMode(caller.mode, definition.permissionMode),
      system,
      tools: subagentTools(context.sessionTools, definition, { background }),
      maxTurns: definition.maxTurns ?? context.maxTurns,
      fileState: caller.fileState.clone(),
      ...(call.effort && { effort: call.effort }),
    },
    messages: [{ role: 'user', content: [{ type: 'text', text: call.prompt }] }],
    cwd: caller.cwd,
  }
}

/**
 * Prepares a fork of the caller: its exact request (system blocks, tools, model, output limit,
 * thinking), its conversation and reply, and the directive. The model is always the caller's
 * (`model` is ignored, as Claude Code does) and so is its mode.
 */
export function prepareFork(call: AgentCall, origin: CallOrigin, context: PrepareContext): Prepared {
  const { caller } = context
  const make: Prepared['make'] = {
    type: 'fork',
    description: call.description.trim(),
    fork: true,
    model: origin.model,
    mode: caller.mode,
    system: origin.system,
    // The tools of that very request, in its order (a tool that joined since would change the bytes).
    tools: origin.tools.flatMap((schema) => caller.tools.filter((tool) => tool.name === schema.name)),
    maxTurns: context.maxTurns,
    maxTokens: origin.maxTokens,
    fileState: caller.fileState.clone(),
  }
  // The same thinking and effort as that request, so the fork's first request matches it byte for byte.
  make.reasoning = {
    thinking: origin.thinking !== undefined,
    ...(origin.thinking?.type === 'enabled' && { thinkingBudget: origin.thinking.budget_tokens }),
    ...(origin.thinking?.display && { display: origin.thinking.display }),
    ...(origin.effort && { effort: origin.effort }),
  }
  const counted = origin.promptTokens !== undefined ? { promptTokens: origin.promptTokens, messages: origin.messages, system: origin.system, tools: origin.tools } : undefined
  return { make, messages: forkMessages(origin, call.prompt), cwd: caller.cwd, ...(counted && { counted }) }
}
