import type { ReminderSink } from '../context/reminders'
import type { PromptSection } from '../context/system-prompt'
import type { SessionGrants } from '../governance/decide/session'
import type { PermissionDecision } from '../governance/types'
import type { McpServers } from '../services/mcp'
import { DEFAULT_MCP_OUTPUT_TOKENS } from '../tools/mcp/mcp-result'
import { MAX_INSTRUCTIONS, McpToolPool } from '../tools/mcp/mcp-pool'
import { skillTool } from '../tools/skill'
import type { AnyTool, SkillLoader, ToolContext } from '../tools/types'
import type { McpRegistry } from '../services/mcp/registry'
import type { SessionEnvironment } from '../session/session'
import { SessionExtensions } from './extensions'

/** What one session's extensions need from the runtime. */
export interface ExtensionPartsOptions {
  registry: McpRegistry
  projectPath: string
  projectDataDir: string
  sessionId: string
  userHome: string
  env: Readonly<Record<string, string | undefined>>
  /** Whether the project's skills and commands are trusted (their `allowed-tools` apply); asked each time. */
  trusted(): boolean
  check(tool: AnyTool, input: unknown): Promise<PermissionDecision>
  grants: SessionGrants
  notice(level: 'info' | 'warning', message: string): void
  /** The session's reminder queue: what the model should hear about servers (joined, failed, tools changed). */
  reminders: ReminderSink
  /**
   * Start the project's MCP servers only when `startServers` is called (unattended runs call it once
   * the first model request is out: spawning ten servers costs the main thread tens of
   * milliseconds, which the first request must not pay). Otherwise they start at once.
   */
  deferServerStart?: boolean
}

/** The pieces a session's environment and toolset take from MCP, skills and commands. */
export interface ExtensionParts {
  /** The session's tools: the core ones, the Skill tool, and the MCP pool (read before every request). */
  toolset(core: AnyTool[], context: () => Partial<ToolContext>): { tools: AnyTool[]; currentTools: () => AnyTool[]; context: { mcp?: McpServers; skills: SkillLoader } }
  environment: Required<Pick<SessionEnvironment, 'expandPrompt'>>
  /** The skill catalog as a system prompt section (none when there are no skills). */
  promptSections(): Promise<PromptSection[]>
  /** The `instructions` of every connected MCP server that gave some (what comes back after a compaction). */
  mcpInstructions(): Array<{ label: string; text: string }>
  /** Starts the MCP servers if they were deferred (idempotent). */
  startServers(): void
  release(): Promise<void>
}

/**
 * Wires one session to its project's MCP servers (started when the session opens, shared with the
 * project's other sessions) and to its skills and custom commands. What the model should hear
 * about servers (joined, failed, tools changed) goes to the session's reminder queue, so it rides
 * with the next request (a tool result's message as well as a prompt); each is also a notice for
 * the user.
 */
export function createExtensionParts(o: ExtensionPartsOptions): ExtensionParts {
  const mcp = o.registry.acquire(o.projectPath, { deferStart: o.deferServerStart === true })
  const servers = mcp.servers
  const configured = servers.all().length > 0
  const outputTokens = Number(o.env['MAX_MCP_OUTPUT_TOKENS'])
  const pool = new McpToolPool(servers, { outputTokens: Number.isFinite(outputTokens) && outputTokens > 0 ? outputTokens : DEFAULT_MCP_OUTPUT_TOKENS })
  for (const problem of servers.problems) o.notice('warning', `MCP configuration${problem.file ? ` (${problem.file})` : ''}: ${problem.message}`)
  const unsubscribe = servers.subscribe(() => {
    for (const line of pool.news()) {
      o.reminders.push(line, { source: 'mcp' })
      o.notice(line.includes('is not available') ? 'warning' : 'info', line.split('\n')[0]!)
    }
  })
  const extensions = new SessionExtensions({
    projectRoot: o.projectPath,
    projectDataDir: o.projectDataDir,
    sessionId: o.sessionId,
    userHome: o.userHome,
    ...(configured && { servers }),
    check: o.check,
    grants: o.grants,
    trusted: o.trusted,
    env: o.env,
    notice: o.notice,
  })

  return {
    toolset(core, context) {
      const fixed = [...core, skillTool]
      let last: { mcp: AnyTool[]; all: AnyTool[] } | undefined
      const currentTools = () => {
        const mcpTools = configured ? pool.tools() : []
        if (last?.mcp !== mcpTools) last = { mcp: mcpTools, all: [...fixed, ...mcpTools] }
        return last.all
      }
      const toolsNow = () => ({ tools: currentTools(), context: context() })
      return { tools: currentTools(), currentTools, context: { ...(configured && { mcp: servers }), skills: extensions.skillLoader(toolsNow) } }
    },
    environment: {
      expandPrompt: (text, toolset, signal) => extensions.expandPrompt(text, { tools: toolset.currentTools?.() ?? toolset.tools, context: toolset.context ?? {} }, signal),
    },
    async promptSections() {
      const text = await extensions.systemPromptSection()
      return text ? [{ name: 'Skills', text }] : []
    },
    mcpInstructions: () =>
      servers.all().flatMap((connection) => {
        const instructions = connection.current === 'connected' ? connection.snapshot().instructions?.trim() : undefined
        return instructions ? [{ label: connection.name, text: `MCP server "${connection.name}" is connected. Its instructions:\n${instructions.slice(0, MAX_INSTRUCTIONS)}` }] : []
      }),
    startServers: () => servers.start(),
    async release() {
      unsubscribe()
      await mcp.release()
    },
  }
}
