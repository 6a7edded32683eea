import type { Message, ToolSchema } from '../services/model/types'
import { createToolSearchTool, TOOL_SEARCH } from '../tools/tool-search'
import type { AnyTool } from '../tools/types'

/**
 * Deferred tools (Claude Code 2.1.328's tool search). A deferred tool is sent with
 * `defer_loading: true`, so the API keeps its definition out of the prompt until a ToolSearch
 * result names it in a `tool_reference` block. Which tools are deferred depends only on the tool
 * set and the policy, never on what has been loaded: every request of a session sends the same
 * `tools` bytes (the prompt cache's first block), before and after a ToolSearch. (Claude Code
 * sends only the loaded deferred tools plus a placeholder, so its array grows as tools load; the
 * API leaves deferred definitions out of the cached prefix either way.)
 */

/** `ENABLE_TOOL_SEARCH`: off, always (MCP tools deferred whatever their size), or past a share of the window. */
export type ToolSearchMode = { kind: 'off' } | { kind: 'always' } | { kind: 'auto'; percent: number }

/** How a session defers tools. */
export interface ToolSearchPolicy {
  mode: ToolSearchMode
  /** The `deferBuiltinTools` setting: rarely used built-in tools are deferred too. */
  deferBuiltins: boolean
  /** The model's context window in tokens (what `auto`'s share is of). */
  contextWindow: number
}

/** Claude Code's default for `auto`: MCP tools are deferred once their schemas would take 10 % of the window. */
export const DEFAULT_TOOL_SEARCH_PERCENT = 10

/** Built-in tools a session rarely needs in every request (the ones Claude Code 2.1.328 defers). */
export const DEFERRABLE_BUILTINS: ReadonlySet<string> = new Set(['WebFetch', 'WebSearch', 'TaskOutput', 'TaskStop', 'SendMessage', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'EnterWorktree', 'ExitWorktree'])

/**
 * Reads `ENABLE_TOOL_SEARCH` as Claude Code does: `true` always, `false` off, `auto` (the
 * default) or `auto:N` past N % of the window. A value that does not parse is reported and the
 * default is used.
 */
export function toolSearchMode(value: string | undefined): { mode: ToolSearchMode; problem?: string } {
  const raw = value?.trim().toLowerCase()
  if (raw === undefined || raw === '' || raw === 'auto') return { mode: { kind: 'auto', percent: DEFAULT_TOOL_SEARCH_PERCENT } }
  if (raw === 'true' || raw === '1') return { mode: { kind: 'always' } }
  if (raw === 'false' || raw === '0') return { mode: { kind: 'off' } }
  const match = /^auto:(\d+(?:\.\d+)?)$/.exec(raw)
  if (match) return { mode: { kind: 'auto', percent: Number(match[1]) } }
  return { mode: { kind: 'auto', percent: DEFAULT_TOOL_SEARCH_PERCENT }, problem: `Invalid ENABLE_TOOL_SEARCH value "${value}": expected true, false, auto or auto:N where N is a number.` }
}

/** An MCP tool (Claude Code's `mcp__server__tool` names). */
export function isMcpTool(tool: Pick<AnyTool, 'name'>): boolean {
  return tool.name.startsWith('mcp__')
}

/** Approximate tokens of a tool's definition (a quarter of its JSON's characters). */
function schemaTokens(tool: AnyTool): number {
  return Math.ceil(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema }).length / 4)
}

/** The tools split into the ones every request carries and the deferred ones. */
export function splitDeferred(tools: readonly AnyTool[], policy: ToolSearchPolicy | undefined): { loaded: AnyTool[]; deferred: AnyTool[] } {
  if (!policy || policy.mode.kind === 'off') return { loaded: [...tools], deferred: [] }
  const mcp = tools.filter(isMcpTool)
  const mcpTokens = mcp.reduce((sum, tool) => sum + schemaTokens(tool), 0)
  const deferMcp = mcp.length > 0 && (policy.mode.kind === 'always' || mcpTokens >= (policy.contextWindow * policy.mode.percent) / 100)
  const deferred = tools.filter((tool) => (deferMcp && isMcpTool(tool)) || (policy.deferBuiltins && DEFERRABLE_BUILTINS.has(tool.name)))
  if (deferred.length === 0) return { loaded: [...tools], deferred: [] }
  return { loaded: tools.filter((tool) => !deferred.includes(tool)), deferred }
}

/** What a request offers: the loaded tools, ToolSearch, then every deferred tool marked `defer_loading`. */
export interface OfferedTools {
  /** Every tool a call may name (deferred ones included: they run once loaded). */
  runnable: AnyTool[]
  schemas: ToolSchema[]
  /** Names of the deferred tools. */
  deferred: ReadonlySet<string>
}

/** Builds the request's tools for a tool set (the same bytes for the same set). */
export function offerTools(tools: readonly AnyTool[], policy: ToolSearchPolicy | undefined): OfferedTools {
  const { loaded, deferred } = splitDeferred(tools, policy)
  const schemaOf = (tool: AnyTool): ToolSchema => ({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema })
  if (deferred.length === 0) return { runnable: loaded, schemas: loaded.map(schemaOf), deferred: new Set() }
  const search = createToolSearchTool(deferred)
  return {
    runnable: [...loaded, search, ...deferred],
    schemas: [...loaded.map(schemaOf), schemaOf(search), ...deferred.map((tool) => ({ ...schemaOf(tool), defer_loading: true as const }))],
    deferred: new Set(deferred.map((tool) => tool.name)),
  }
}

/** The deferred tools a conversation has loaded: those a ToolSearch result referenced. */
export function loadedTools(messages: readonly Message[]): Set<string> {
  const names = new Set<string>()
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue
    for (const block of message.content) {
      if (block.type !== 'tool_result' || typeof block.content === 'string') continue
      for (const part of block.content) if (part.type === 'tool_reference') names.add(part.tool_name)
    }
  }
  return names
}

export { TOOL_SEARCH }
