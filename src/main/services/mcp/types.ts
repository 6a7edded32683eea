/**
 * What the rest of Sous sees of an MCP server: plain data, no SDK types. The Extensions view, the
 * tool layer and `sous -p` all read these shapes.
 */

/**
 * Where a server stands. `pending`: not started yet; `connecting`; `connected`; `failed` (could
 * not start, crashed, or closed: `error` says how); `disabled` (`disabledMcpjsonServers`, or
 * turned off by the user);
 * `needs-approval` (a project server nobody approved yet); `untrusted` (the folder is not trusted).
 */
export type McpStatus = 'pending' | 'connecting' | 'connected' | 'failed' | 'disabled' | 'needs-approval' | 'untrusted'

/** Behaviour hints a server gives for a tool (MCP `ToolAnnotations`); hints, never guarantees. */
export interface McpToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/** One tool a server offers. */
export interface McpToolInfo {
  /** The server's own name for it. */
  name: string
  description: string
  /** JSON Schema of its arguments, as the server sent it. */
  inputSchema: Record<string, unknown>
  annotations: McpToolAnnotations
  /** `_meta["anthropic/maxResultSizeChars"]`: results up to this many characters stay inline (≤ 500,000). */
  maxResultChars?: number
  /** `_meta["anthropic/requiresUserInteraction"] === true`: every call asks, whatever the mode or rules. */
  requiresUserInteraction: boolean
}

/** One resource a server offers. */
export interface McpResourceInfo {
  uri: string
  name: string
  description?: string
  mimeType?: string
}

/** One prompt a server offers (a slash command `/mcp__<server>__<prompt>`). */
export interface McpPromptInfo {
  name: string
  description?: string
  arguments: Array<{ name: string; description?: string; required: boolean }>
}

/** A line of a server's log: its stderr, its `notifications/message`, or what Sous did with it. */
export interface McpLogLine {
  at: number
  source: 'stderr' | 'server' | 'sous'
  text: string
}

/** Everything known about one server at a moment (the Extensions view's row). */
export interface McpServerState {
  name: string
  scope: 'cli' | 'local' | 'project' | 'user'
  transport: 'stdio' | 'http' | 'sse'
  file?: string
  status: McpStatus
  /** Why it failed, in one line. */
  error?: string
  /** Configuration warnings (unset variables…). */
  warnings: string[]
  serverInfo?: { name: string; version: string }
  /** The server's `instructions`, if it gave any. */
  instructions?: string
  tools: McpToolInfo[]
  resources: McpResourceInfo[]
  prompts: McpPromptInfo[]
  /** Newest last, bounded. */
  logs: McpLogLine[]
  /** The user turned the server off (the Extensions view). */
  turnedOff?: boolean
  /** Its tools the user turned off (the server's own names). */
  disabledTools?: string[]
}

/** A content block of a tool result or a read resource, without SDK types. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; mimeType: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: 'resource_link'; uri: string; name: string; description?: string; mimeType?: string }

/** What a tool call returned. */
export interface McpCallResult {
  content: McpContent[]
  structuredContent?: unknown
  isError: boolean
}

/** A failed call, with a message written for the model. */
export class McpCallError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'McpCallError'
  }
}
