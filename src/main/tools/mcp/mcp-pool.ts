import type { McpConnection, McpServers, McpStatus, McpToolInfo } from '../../services/mcp'
import type { AnyTool } from '../types'
import { listMcpResourcesTool } from './list-mcp-resources'
import { createMcpTool, type McpToolOptions } from './mcp-tool'
import { readMcpResourceTool } from './read-mcp-resource'
import { waitForMcpServersTool } from './wait-for-mcp-servers'

/** How much of a server's `instructions` the model is given when it joins. */
export const MAX_INSTRUCTIONS = 2000

/**
 * The MCP part of a session's tools, rebuilt from the servers' live state each time it is read
 * (before every model request). A server's tools stay in the pool after it crashes, so a call gets
 * a clear "not connected" error instead of "no such tool", and the tool list (the cached prefix of
 * every request) does not change when a server goes down. The resource and wait tools are offered
 * whenever any server is configured. Servers and tools the user turned off are left out.
 */
export class McpToolPool {
  private readonly built = new Map<McpConnection, { list: readonly McpToolInfo[]; tools: Array<{ tool: AnyTool; serverName: string }> }>()
  private readonly seen = new Map<string, { status: McpStatus; list: readonly McpToolInfo[] }>()
  private current: AnyTool[] = []
  private started = false

  constructor(
    private readonly servers: McpServers,
    private readonly options: McpToolOptions,
  ) {}

  /** The tools to offer now (read before every request); the same array while nothing changed. */
  tools(): AnyTool[] {
    const connections = this.servers.all()
    const tools: AnyTool[] = []
    const names = new Set<string>()
    for (const connection of connections) {
      // A server the user turned off offers nothing (a crashed one keeps its tools: see above).
      if (connection.current === 'disabled') continue
      for (const { tool, serverName } of this.toolsOf(connection)) {
        // Two servers whose names normalize alike (`a.b`, `a_b`): the first keeps the name.
        if (names.has(tool.name) || !this.servers.isToolEnabled(connection.name, serverName)) continue
        names.add(tool.name)
        tools.push(tool)
      }
    }
    if (connections.length > 0) tools.push(listMcpResourcesTool, readMcpResourceTool, waitForMcpServersTool)
    if (!sameTools(tools, this.current)) this.current = tools
    if (!this.started) {
      // The first request shows what is connected by then; only later arrivals are news.
      for (const connection of connections) {
        // Seen as it is now, even if an earlier change saw it connecting (its news may not have run yet).
        if (connection.current === 'connected') this.seen.set(connection.name, { status: 'connected', list: connection.toolList })
      }
      this.started = true
    }
    return this.current
  }

  /**
   * What the model should be told since the last call: servers that connected after the first
   * request (with their tools and instructions), servers that failed, tool lists that changed.
   */
  news(): string[] {
    return this.newsOf(this.servers.all())
  }

  private toolsOf(connection: McpConnection): Array<{ tool: AnyTool; serverName: string }> {
    const list = connection.toolList
    const cached = this.built.get(connection)
    if (cached?.list === list) return cached.tools
    const tools = list.flatMap((info) => {
      const tool = createMcpTool(connection, info, this.options)
      return tool ? [{ tool, serverName: info.name }] : []
    })
    this.built.set(connection, { list, tools })
    return tools
  }

  private newsOf(connections: McpConnection[]): string[] {
    const lines: string[] = []
    for (const connection of connections) {
      const status = connection.current
      const list = connection.toolList
      const before = this.seen.get(connection.name)
      this.seen.set(connection.name, { status, list })
      const names = () =>
        this.toolsOf(connection)
          .filter(({ serverName }) => this.servers.isToolEnabled(connection.name, serverName))
          .map(({ tool }) => tool.name)
          .join(', ') || 'none'
      // Before the first request nothing connected is news: that request offers what is there by then.
      if (status === 'connected' && this.started) {
        if (!before || before.status !== 'connected') {
          const instructions = connection.snapshot().instructions
          const told = instructions ? ` Its instructions:\n${instructions.slice(0, MAX_INSTRUCTIONS)}` : ''
          lines.push(`MCP server "${connection.name}" has connected. Its tools are now available: ${names()}.${told}`)
        } else if (before && before.list !== list) {
          lines.push(`The tools of MCP server "${connection.name}" changed. They are now: ${names()}.`)
        }
      } else if (status === 'failed' && before?.status !== 'failed') {
        const error = connection.snapshot().error
        lines.push(`MCP server "${connection.name}" is not available${error ? `: ${error}` : ''}. Calls to its tools fail until the user restarts it.`)
      }
    }
    return lines
  }
}

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  return a.length === b.length && a.every((tool, index) => tool === b[index])
}
