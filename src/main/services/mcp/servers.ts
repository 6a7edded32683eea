import type { McpConfigProblem, McpServerDefinition } from './config'
import { McpApprovals } from './approvals'
import { McpChoices, toolKey, type McpProjectOff } from './choices'
import { childEnvironment, type ChildEnvPolicy } from '../../base/child-env'
import { McpConnection } from './connection'
import { loadMcpSources, type McpProjectChoices } from './sources'
import { withTunnelled, type TunnelledMcpServers } from './tunnelled'
import type { McpServerState } from './types'

/** Options of {@link McpServers}. */
export interface McpServersOptions {
  projectRoot: string
  userHome: string
  sousHome: string
  /**
   * Sous's own environment; servers get it as every child does (base/child-env): without Sous's
   * credentials and the variables `childEnv` marks.
   */
  env: Readonly<Record<string, string | undefined>>
  childEnv?: ChildEnvPolicy
  /** `--mcp-config` files (absolute) or JSON texts. */
  cliConfigs?: readonly string[]
  /** `--strict-mcp-config`. */
  strict?: boolean
  /**
   * Whether the folder's `.mcp.json`, as it was read here (`null`: none), is trusted: until it is,
   * its servers never start. Asked each time a server would start.
   */
  trusted(mcpJsonText: string | null): boolean
  /**
   * `all`: every project server counts as approved (headless `sous -p`, as Claude Code does);
   * `ask`: each new or changed one waits in `needs-approval` until {@link McpServers.approve}.
   */
  projectApproval: 'all' | 'ask'
  clientVersion?: string
  /** A remote host's servers run by the local Sous: they join as user servers and win over a same-named one here. */
  tunnelled?: TunnelledMcpServers
}

/** Claude Code's default for `MCP_TIMEOUT`: how long a server may take to start. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000
const DEFAULT_CALL_TIMEOUT_MS = 600_000

/**
 * The MCP servers of one project: configuration read once, every server started in parallel and
 * in the background (`start` returns at once), status and lists kept live. Listeners hear about
 * every change (coalesced to one call per tick). Nothing here throws for a server's failure: a
 * server that cannot start is `failed` with its reason, and the others go on.
 */
export class McpServers {
  readonly problems: McpConfigProblem[]
  /** The project's `.mcp.json` as it was read (`null`: none, or `--strict-mcp-config`). */
  private readonly projectFileText: string | null
  private readonly connections = new Map<string, McpConnection>()
  private readonly listeners = new Set<() => void>()
  private readonly approvals: McpApprovals
  private readonly userChoices: McpChoices
  /** What the user turned off (re-read when they change it here). */
  private off: McpProjectOff
  private readonly choices: McpProjectChoices
  private readonly settled = new Map<string, Promise<void>>()
  private notifyScheduled = false
  private started = false
  private disposed = false

  constructor(private readonly options: McpServersOptions) {
    const scrubbed = childEnvironment(options.env, options.childEnv)
    const sources = loadMcpSources({
      projectRoot: options.projectRoot,
      userHome: options.userHome,
      sousHome: options.sousHome,
      env: scrubbed,
      ...(options.cliConfigs && { cliConfigs: options.cliConfigs }),
      ...(options.strict && { strict: true }),
    })
    this.problems = sources.problems
    this.projectFileText = sources.projectFileText
    this.choices = sources.choices
    this.approvals = new McpApprovals(options.sousHome)
    this.userChoices = new McpChoices(options.sousHome)
    this.off = this.userChoices.offIn(options.projectRoot)
    const connectTimeoutMs = mcpConnectTimeoutMs(options.env)
    const callTimeoutMs = positive(options.env['MCP_TOOL_TIMEOUT']) ?? DEFAULT_CALL_TIMEOUT_MS
    for (const definition of withTunnelled(sources.servers, options.tunnelled, this.problems)) {
      const connection = new McpConnection({
        definition,
        projectRoot: options.projectRoot,
        childEnv: scrubbed,
        connectTimeoutMs,
        callTimeoutMs,
        clientVersion: options.clientVersion ?? '0.0.0',
        ...(options.tunnelled && { tunnelled: options.tunnelled }),
        onChange: () => this.changed(),
      })
      this.connections.set(definition.name, connection)
    }
  }

  /** Starts every server that may run, all at once; returns immediately. Idempotent. */
  start(): void {
    if (this.started || this.disposed) return
    this.started = true
    for (const connection of this.connections.values()) {
      const hold = this.holdReason(connection.definition)
      if (hold) connection.hold(hold.status, hold.reason)
      else this.launch(connection)
    }
  }

  /**
   * Starts the servers that were held back (untrusted, waiting for approval) and may run now: the
   * user trusted the folder or approved them elsewhere. Does nothing before {@link start}.
   */
  startHeld(): void {
    if (!this.started || this.disposed) return
    for (const connection of this.connections.values()) {
      if (connection.current !== 'untrusted' && connection.current !== 'needs-approval') continue
      const hold = this.holdReason(connection.definition)
      if (hold) connection.hold(hold.status, hold.reason)
      else this.launch(connection)
    }
  }

  /** Marks the servers that would be held back, starting none (a listing of a project with no session). */
  plan(): void {
    for (const connection of this.connections.values()) {
      const hold = this.holdReason(connection.definition)
      if (hold) connection.hold(hold.status, hold.reason)
    }
  }

  /** Every server's state, in configuration order. */
  states(): McpServerState[] {
    return [...this.connections.values()].map((connection) => ({
      ...connection.snapshot(),
      turnedOff: this.off.servers.has(connection.name),
      disabledTools: this.disabledTools(connection.name),
    }))
  }

  /** One server, by its configured name. */
  get(name: string): McpConnection | undefined {
    return this.connections.get(name)
  }

  /** All servers. */
  all(): McpConnection[] {
    return [...this.connections.values()]
  }

  /** Called (once per tick at most) whenever any server changed. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Resolves when the named servers (all, when none are named) have finished starting, one way or
   * the other, or after `timeoutMs`. Returns the names still starting.
   */
  async waitFor(names: readonly string[] | undefined, timeoutMs: number, signal?: AbortSignal): Promise<string[]> {
    const wanted = (names?.length ? names : [...this.connections.keys()]).filter((name) => this.settled.has(name))
    const pending = () => wanted.filter((name) => this.connections.get(name)?.current === 'connecting')
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
      signal?.addEventListener('abort', () => resolve(), { once: true })
    })
    await Promise.race([Promise.all(wanted.map((name) => this.settled.get(name))), timeout])
    clearTimeout(timer)
    return pending()
  }

  /** Restarts a server that is allowed to run; an error message otherwise. */
  async restart(name: string): Promise<string | undefined> {
    const connection = this.connections.get(name)
    if (!connection) return `no MCP server named "${name}"`
    const hold = this.holdReason(connection.definition)
    if (hold) return `MCP server "${name}" cannot start: ${hold.reason}`
    await connection.close()
    this.launch(connection)
    await this.settled.get(name)
    return undefined
  }

  /** Approves a project server for this project (this exact definition) and starts it. */
  async approve(name: string): Promise<string | undefined> {
    const connection = this.connections.get(name)
    if (!connection) return `no MCP server named "${name}"`
    if (connection.definition.scope !== 'project') return `MCP server "${name}" is not a project server and needs no approval`
    if (!this.trusted()) return 'the project folder is not trusted, so its MCP servers cannot run'
    const error = this.approvals.approve(this.options.projectRoot, connection.definition)
    if (error) return error
    if (this.started && connection.current === 'needs-approval') {
      this.launch(connection)
      await this.settled.get(name)
    }
    return undefined
  }

  /** Whether the user left this tool of this server on (see {@link setEnabled}). */
  isToolEnabled(server: string, tool: string): boolean {
    return !this.off.tools.has(toolKey(server, tool))
  }

  /** The server's tools the user turned off (server's own names). */
  disabledTools(server: string): string[] {
    return [...this.off.tools].filter((key) => key.startsWith(`${server}\0`)).map((key) => key.slice(server.length + 1))
  }

  /**
   * Turns a server, or one tool of it, on or off for this project, saved for later sessions. A
   * server turned off stops now and is held as `disabled`; turned on, it starts if it may. A tool
   * turned off leaves the tool list the model is offered from its next request. Returns an error
   * message when it cannot be done.
   */
  async setEnabled(choice: { server: string; tool?: string; enabled: boolean }): Promise<string | undefined> {
    const connection = this.connections.get(choice.server)
    if (!connection) return `no MCP server named "${choice.server}"`
    const error = this.userChoices.set(this.options.projectRoot, choice)
    if (error) return error
    this.off = this.userChoices.offIn(this.options.projectRoot)
    if (choice.tool !== undefined) {
      this.changed()
      return undefined
    }
    if (!choice.enabled) {
      await connection.close()
      connection.hold('disabled', 'turned off in the Extensions view')
    } else if (this.started && !this.disposed && connection.current === 'disabled') {
      const hold = this.holdReason(connection.definition)
      if (hold) connection.hold(hold.status, hold.reason)
      else {
        this.launch(connection)
        await this.settled.get(choice.server)
      }
    } else if (connection.current === 'disabled') {
      connection.hold('pending', '')
    }
    return undefined
  }

  /** Stops every server. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true
    this.listeners.clear()
    await Promise.all([...this.connections.values()].map((connection) => connection.close()))
  }

  private trusted(): boolean {
    try {
      return this.options.trusted(this.projectFileText)
    } catch {
      return false
    }
  }

  private launch(connection: McpConnection): void {
    this.settled.set(connection.name, connection.connect())
  }

  private holdReason(server: McpServerDefinition): { status: 'disabled' | 'needs-approval' | 'untrusted'; reason: string } | undefined {
    if (this.off.servers.has(server.name)) return { status: 'disabled', reason: 'turned off in the Extensions view' }
    if (server.scope !== 'project') return undefined
    if (this.choices.disabled.has(server.name)) return { status: 'disabled', reason: 'listed in disabledMcpjsonServers' }
    if (!this.trusted()) return { status: 'untrusted', reason: 'the project folder is not trusted yet' }
    if (this.options.projectApproval === 'all' || this.choices.enableAll || this.choices.enabled.has(server.name)) return undefined
    if (this.approvals.isApproved(this.options.projectRoot, server)) return undefined
    return { status: 'needs-approval', reason: 'a project server runs only after you approve it (new or changed since approved)' }
  }

  private changed(): void {
    if (this.notifyScheduled || this.disposed) return
    this.notifyScheduled = true
    setImmediate(() => {
      this.notifyScheduled = false
      if (this.disposed) return
      for (const listener of this.listeners) {
        try {
          listener()
        } catch {
          // A listener's bug must not stop the others.
        }
      }
    })
  }
}

/** `MCP_TIMEOUT` (milliseconds; Claude Code's variable), or its default. */
export function mcpConnectTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  return positive(env['MCP_TIMEOUT']) ?? DEFAULT_CONNECT_TIMEOUT_MS
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value)
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : undefined
}
