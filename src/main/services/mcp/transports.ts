import { resolve } from 'node:path'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerConfig, McpServerDefinition } from './config'
import type * as SdkModule from './sdk'
import type { ServerEnd } from './stdio-transport'
import type { TunnelledMcpServers } from './tunnelled'

/** Where a transport reports a stdio child's output and end. */
export interface TransportHooks {
  projectRoot: string
  /** The environment a stdio server starts from (Sous's secrets already removed). */
  childEnv: Record<string, string>
  onStderr(line: string): void
  onExit(end: ServerEnd): void
  /** The servers run by the local Sous (a remote host's `local` servers). */
  tunnelled?: TunnelledMcpServers
}

/**
 * The transport for one server entry: our stdio transport (the project root as working folder by
 * default, `CLAUDE_PROJECT_DIR` set as Claude Code does, the entry's `env` on top), the SDK's
 * Streamable HTTP / SSE client with the entry's headers, or the remote channel's tunnel to a
 * server the local Sous runs. Throws for a URL that is not http(s).
 */
export function createTransport(sdk: typeof SdkModule, name: string, config: McpServerConfig, hooks: TransportHooks): Transport {
  if (config.type === 'tunnel') {
    if (!hooks.tunnelled) throw new Error('no local Sous is connected to run this server')
    return hooks.tunnelled.transport(name, hooks.onExit)
  }
  if (config.type === 'stdio') {
    return new sdk.ProcessTransport({
      command: config.command,
      args: config.args,
      env: { ...hooks.childEnv, CLAUDE_PROJECT_DIR: hooks.projectRoot, ...config.env },
      cwd: config.cwd ? resolve(hooks.projectRoot, config.cwd) : hooks.projectRoot,
      onStderr: hooks.onStderr,
      onExit: hooks.onExit,
    })
  }
  let url: URL
  try {
    url = new URL(config.url)
  } catch {
    throw new Error(`invalid url ${JSON.stringify(config.url)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported url scheme ${url.protocol} (http or https only)`)
  const requestInit = { headers: config.headers }
  return config.type === 'sse' ? new sdk.SSEClientTransport(url, { requestInit }) : new sdk.StreamableHTTPClientTransport(url, { requestInit })
}

/** What a server runs or where it lives, for its log. */
export function describeTarget(config: McpServerConfig): string {
  if (config.type === 'tunnel') return 'on the local machine, through the remote channel'
  return config.type === 'stdio' ? `${config.command} ${config.args.join(' ')}`.trim() : `${config.type} ${config.url}`
}

/** A tunnelled server is a stdio server on the local machine: views show it as one. */
export function transportOf(definition: McpServerDefinition): 'stdio' | 'http' | 'sse' {
  return definition.config.type === 'tunnel' ? 'stdio' : definition.config.type
}
