import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { childEnvironment } from '../../base/child-env'
import { parseMcpServers, type McpServerDefinition } from '../../services/mcp/config'
import { createTransport } from '../../services/mcp/transports'
import { readChildEnvPolicy } from '../../workspace/preferences'
import type { LocalMcpOffer } from './local-mcp'

/** Where the user's own servers and the preference are read. */
export interface LocalMcpOptions {
  /** `$SOUS_HOME` (its `settings.json` holds `remoteLocalMcpServers` and may hold `mcpServers`). */
  sousHome: string
  /** The user's home (`~/.claude.json`'s top-level `mcpServers`). */
  userHome: string
  env: NodeJS.ProcessEnv
}

/**
 * The servers the user marked `local`: `remoteLocalMcpServers` in `$SOUS_HOME/settings.json`
 * names user-scope servers (`mcpServers` of that file, then of `~/.claude.json`), which run on
 * this machine whenever a remote project opens and are offered to its agent. Only user files are
 * read — never a project's, which are the remote's and untrusted. A settings file that cannot be
 * parsed offers nothing (fail closed) and says why; a name with no user server is skipped with a
 * problem.
 */
export function loadLocalMcpOffer(options: LocalMcpOptions): { offer?: LocalMcpOffer; problems: string[] } {
  const problems: string[] = []
  const settingsFile = join(options.sousHome, 'settings.json')
  const settings = readJson(settingsFile, problems)
  if (settings === undefined) return { problems }
  const wanted = settings['remoteLocalMcpServers']
  if (wanted === undefined) return { problems }
  if (!Array.isArray(wanted) || !wanted.every((name) => typeof name === 'string')) {
    return { problems: [`${settingsFile}: "remoteLocalMcpServers" must be a list of MCP server names; no local server is offered`] }
  }
  const env = childEnvironment(options.env, readChildEnvPolicy(options.sousHome))
  const claudeJsonFile = join(options.userHome, '.claude.json')
  const defined = new Map<string, McpServerDefinition>()
  for (const [value, file] of [[settings, settingsFile], [readJson(claudeJsonFile, problems) ?? {}, claudeJsonFile]] as const) {
    const parsed = parseMcpServers(value['mcpServers'], { scope: 'user', file }, env)
    for (const server of parsed.servers) if (!defined.has(server.name)) defined.set(server.name, server)
  }
  const names: string[] = []
  for (const name of new Set(wanted as string[])) {
    if (defined.has(name)) names.push(name)
    else problems.push(`remoteLocalMcpServers names "${name}", which is no user MCP server (mcpServers of ${settingsFile} or ${claudeJsonFile}); skipped`)
  }
  if (names.length === 0) return { problems }
  return {
    problems,
    offer: {
      names,
      async open(name, hooks) {
        const server = defined.get(name)
        if (!server) return `this Sous runs no MCP server named "${name}" for the remote`
        try {
          const sdk = await import('../../services/mcp/sdk')
          // No project folder here: a local server works in the user's home.
          return createTransport(sdk, name, server.config, { projectRoot: options.userHome, childEnv: env, onStderr: hooks.onStderr, onExit: hooks.onExit })
        } catch (error) {
          return `could not start: ${(error as Error).message}`
        }
      },
    },
  }
}

/** A JSON object file; missing is `{}`, unreadable or not an object is a problem and `undefined`. */
function readJson(file: string, problems: string[]): Record<string, unknown> | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    problems.push(`${file} could not be read (${(error as Error).message}); no local MCP server is offered`)
    return undefined
  }
  try {
    const value = JSON.parse(text) as unknown
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // said below
  }
  problems.push(`${file} is not a JSON object; no local MCP server is offered`)
  return undefined
}
