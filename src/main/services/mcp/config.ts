import { createHash } from 'node:crypto'
import { z } from 'zod'
import { expandRecord, expandVariables } from './expand'

/**
 * MCP server entries in Claude Code's format (`mcpServers` in `.mcp.json`, `~/.claude.json`,
 * `--mcp-config`): stdio (`command`, `args`, `env`), Streamable HTTP (`type: "http"` or
 * `"streamable-http"`, `url`, `headers`) and legacy SSE (`type: "sse"`). An optional `timeout`
 * (ms) bounds each tool call of that server.
 */

/** Where a server's definition came from, highest precedence first. */
export type McpScope = 'cli' | 'local' | 'project' | 'user'

/** A server ready to connect: variables expanded. */
export type McpServerConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string; timeout?: number }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string>; timeout?: number }
  /** A server the local Sous runs for this remote host (never read from a file: see tunnelled.ts). */
  | { type: 'tunnel'; timeout?: number }

/** One configured server: what the file said, what it expands to, and where it came from. */
export interface McpServerDefinition {
  /** The name as configured (the key under `mcpServers`). */
  name: string
  scope: McpScope
  /** The file it came from (`--mcp-config` JSON text has none). */
  file?: string
  config: McpServerConfig
  /** Hash of the entry as written: an approval is for exactly this definition. */
  fingerprint: string
  /** Non-fatal problems (unset variables, padded values), shown with the server. */
  warnings: string[]
}

/** A problem that kept a server (or a whole file) from loading. */
export interface McpConfigProblem {
  file?: string
  server?: string
  message: string
}

const Strings = z.record(z.string(), z.string())
const Timeout = z.number().int().positive().optional()

const StdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: Strings.default({}),
  cwd: z.string().optional(),
  timeout: Timeout,
})

const RemoteEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'sse']),
  url: z.string(),
  headers: Strings.default({}),
  timeout: Timeout,
})

/** Server names Claude Code keeps for its own servers; a configured one is skipped with a warning. */
const RESERVED = new Set(['workspace', 'claude-in-chrome', 'computer-use', 'Claude Preview', 'Claude Browser'])

/**
 * Reads the `mcpServers` object of one source. Never throws: each entry that cannot load becomes a
 * problem, the others load. `env` is what `${VAR}` expands against (already without Sous's secrets).
 */
export function parseMcpServers(
  servers: unknown,
  source: { scope: McpScope; file?: string },
  env: Readonly<Record<string, string | undefined>>,
): { servers: McpServerDefinition[]; problems: McpConfigProblem[] } {
  const out: McpServerDefinition[] = []
  const problems: McpConfigProblem[] = []
  const problem = (message: string, server?: string) => problems.push({ ...(source.file && { file: source.file }), ...(server !== undefined && { server }), message })
  if (servers === undefined) return { servers: out, problems }
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    problem('"mcpServers" must be an object mapping server names to their configuration')
    return { servers: out, problems }
  }
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    const why = nameProblem(name)
    if (why) {
      problem(why, name)
      continue
    }
    const parsed = parseEntry(name, entry)
    if (!parsed.ok) {
      problem(parsed.error, name)
      continue
    }
    const { config, missing } = expandConfig(parsed.config, env)
    const warnings = [...new Set(missing)].map((variable) => `environment variable ${variable} is not set and has no default; \${${variable}} is used as written`)
    const padded = paddedFields(parsed.config)
    if (padded.length > 0) warnings.push(`leading or trailing whitespace in: ${padded.join(', ')}`)
    out.push({ name, scope: source.scope, ...(source.file && { file: source.file }), config, fingerprint: fingerprintOf(entry), warnings })
  }
  return { servers: out, problems }
}

function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'a server name must not be empty'
  if (RESERVED.has(name)) return `"${name}" is reserved for a built-in server; rename it`
  if (name.includes('__')) return `server name "${name}" must not contain "__" (tool names are mcp__<server>__<tool>)`
  return undefined
}

function parseEntry(name: string, entry: unknown): { ok: true; config: McpServerConfig } | { ok: false; error: string } {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return { ok: false, error: `MCP server "${name}" must be an object` }
  const record = entry as Record<string, unknown>
  if (record['type'] === 'ws') return { ok: false, error: `MCP server "${name}" uses the WebSocket transport, which Sous does not support` }
  if (record['type'] === undefined && record['url'] !== undefined) {
    return { ok: false, error: `MCP server "${name}" has a "url" but no "type"; add "type": "http" (or "sse") to this entry` }
  }
  const remote = record['type'] !== undefined && record['type'] !== 'stdio'
  const result = remote ? RemoteEntry.safeParse(entry) : StdioEntry.safeParse(entry)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return { ok: false, error: `MCP server "${name}": ${where}${issue?.message ?? 'invalid configuration'}` }
  }
  const value = result.data
  if ('command' in value) {
    return { ok: true, config: { type: 'stdio', command: value.command, args: value.args, env: value.env, ...(value.cwd && { cwd: value.cwd }), ...(value.timeout && { timeout: value.timeout }) } }
  }
  const type = value.type === 'sse' ? 'sse' : 'http'
  return { ok: true, config: { type, url: value.url, headers: value.headers, ...(value.timeout && { timeout: value.timeout }) } }
}

/** Expands `${VAR}` in command, args, env, url and headers (the places Claude Code expands). */
function expandConfig(config: McpServerConfig, env: Readonly<Record<string, string | undefined>>): { config: McpServerConfig; missing: string[] } {
  if (config.type === 'tunnel') return { config, missing: [] }
  if (config.type === 'stdio') {
    const command = expandVariables(config.command, env)
    const args = config.args.map((arg) => expandVariables(arg, env))
    const childEnv = expandRecord(config.env, env)
    const cwd = config.cwd === undefined ? undefined : expandVariables(config.cwd, env)
    return {
      config: { ...config, command: command.value, args: args.map((arg) => arg.value), env: childEnv.value, ...(cwd && { cwd: cwd.value }) },
      missing: [...command.missing, ...args.flatMap((arg) => arg.missing), ...childEnv.missing, ...(cwd?.missing ?? [])],
    }
  }
  const url = expandVariables(config.url, env)
  const headers = expandRecord(config.headers, env)
  return { config: { ...config, url: url.value, headers: headers.value }, missing: [...url.missing, ...headers.missing] }
}

/** Field names whose values carry hidden whitespace (a pasted token with a newline); never the values. */
function paddedFields(config: McpServerConfig): string[] {
  const padded = (value: string) => value !== value.trim()
  const fields: string[] = []
  if (config.type === 'tunnel') return fields
  if (config.type === 'stdio') {
    if (padded(config.command)) fields.push('command')
    config.args.forEach((arg, index) => padded(arg) && fields.push(`args[${index}]`))
    for (const [key, value] of Object.entries(config.env)) if (padded(key) || padded(value)) fields.push(`env.${key.trim()}`)
  } else {
    if (padded(config.url)) fields.push('url')
    for (const [key, value] of Object.entries(config.headers)) if (padded(key) || padded(value)) fields.push(`headers.${key.trim()}`)
  }
  return fields
}

/** A stable hash of an entry as written (key order does not matter). */
export function fingerprintOf(entry: unknown): string {
  return createHash('sha256').update(stableJson(entry)).digest('hex').slice(0, 32)
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${stableJson(child)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The name used in tool names: characters outside `A-Za-z0-9_-` become `_` (as Claude Code does),
 * so `my.server` offers `mcp__my_server__tool`.
 */
export function normalizeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_')
}
