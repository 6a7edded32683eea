import { realpathSync } from 'node:fs'
import type { ChildEnvPolicy } from '../../base/child-env'
import { McpServers } from './servers'
import type { TunnelledMcpServers } from './tunnelled'
import type { McpServerState } from './types'

/** What every project's MCP servers are started with. */
export interface McpRegistryOptions {
  sousHome: string
  userHome: string
  env: Readonly<Record<string, string | undefined>>
  /** Variables servers must not get besides Sous's credentials (the user's list of secrets). */
  childEnv?(): ChildEnvPolicy
  /** `--mcp-config` (absolute paths or JSON texts) and `--strict-mcp-config`. */
  cliConfigs?: readonly string[]
  /** More of them for one project, asked when its servers are made (the ACP client's servers for that folder). */
  projectConfigs?(projectPath: string): readonly string[]
  strict?: boolean
  /**
   * Whether a project's `.mcp.json` servers may run at all, given the file as it was read (`null`:
   * none). Asked whenever servers start, so trusting the folder later applies.
   */
  trusted(projectPath: string, mcpJsonText: string | null): boolean
  /** `all` in headless runs (Claude Code loads project servers there without asking); `ask` otherwise. */
  projectApproval: 'all' | 'ask'
  clientVersion?: string
  /** A remote host's servers run by the local Sous (see tunnelled.ts). */
  tunnelled?: TunnelledMcpServers
  /** A project's servers changed (status, tools, logs). */
  onChange?(projectPath: string, states: McpServerState[]): void
}

/**
 * One {@link McpServers} per open project, shared by that project's sessions and stopped when the
 * last of them ends, so two conversations in one folder do not start every server twice.
 */
export class McpRegistry {
  private readonly projects = new Map<string, { servers: McpServers; users: number; unsubscribe: () => void }>()

  constructor(private readonly options: McpRegistryOptions) {}

  /**
   * The project's servers; call `release` when the session ends. They start now, or, with
   * `deferStart`, when the caller calls `servers.start()` (idempotent).
   */
  acquire(projectPath: string, options: { deferStart?: boolean } = {}): { servers: McpServers; release(): Promise<void> } {
    let entry = this.projects.get(projectPath)
    if (!entry) {
      const cliConfigs = [...(this.options.cliConfigs ?? []), ...(this.options.projectConfigs?.(projectPath) ?? [])]
      const servers = new McpServers({
        projectRoot: projectPath,
        userHome: this.options.userHome,
        sousHome: this.options.sousHome,
        env: this.options.env,
        ...(this.options.childEnv && { childEnv: this.options.childEnv() }),
        ...(cliConfigs.length > 0 && { cliConfigs }),
        ...(this.options.strict && { strict: true }),
        trusted: (mcpJsonText) => this.options.trusted(projectPath, mcpJsonText),
        projectApproval: this.options.projectApproval,
        ...(this.options.clientVersion && { clientVersion: this.options.clientVersion }),
        ...(this.options.tunnelled && { tunnelled: this.options.tunnelled }),
      })
      const unsubscribe = servers.subscribe(() => this.options.onChange?.(projectPath, servers.states()))
      entry = { servers, users: 0, unsubscribe }
      this.projects.set(projectPath, entry)
    }
    if (!options.deferStart) entry.servers.start()
    entry.users++
    const held = entry
    let released = false
    return {
      servers: held.servers,
      release: async () => {
        if (released) return
        released = true
        held.users--
        if (held.users > 0 || this.projects.get(projectPath) !== held) return
        this.projects.delete(projectPath)
        held.unsubscribe()
        await held.servers.dispose()
      },
    }
  }

  /** The servers of a project that has a live session, if any. */
  peek(projectPath: string): McpServers | undefined {
    return this.projects.get(projectPath)?.servers
  }

  /**
   * Starts the servers of an open project that were held back and may run now (the folder was
   * just trusted). The trust step names folders by their real path, sessions by the path they were
   * opened with: either finds the project.
   */
  startHeld(projectPath: string): void {
    const wanted = realPath(projectPath)
    for (const [path, entry] of this.projects) if (path === projectPath || realPath(path) === wanted) entry.servers.startHeld()
  }

  /**
   * Starts again every tunnelled server that failed (a remote host whose client reconnected and
   * offered its `local` servers anew: the drop had ended their runs).
   */
  restartTunnelled(): void {
    const offered = new Set(this.options.tunnelled?.names() ?? [])
    for (const entry of this.projects.values()) {
      for (const state of entry.servers.states()) if (offered.has(state.name) && state.scope === 'user' && state.status === 'failed') void entry.servers.restart(state.name)
    }
  }

  /** Stops every project's servers. */
  async dispose(): Promise<void> {
    const entries = [...this.projects.values()]
    this.projects.clear()
    await Promise.all(entries.map(async (entry) => {
      entry.unsubscribe()
      await entry.servers.dispose()
    }))
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
