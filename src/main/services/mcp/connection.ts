// Longer than 300 lines because it is one server's whole life (start, calls, lists, end) in one class.
import { pathToFileURL } from 'node:url'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerDefinition } from './config'
import { describeEnd, listPrompts, listResources, listTools, toCallResult, toContent } from './convert'
import { childSignal, codeOf, CONNECTION_CLOSED, formatMs, REQUEST_TIMEOUT } from './requests'
import { ServerLog } from './server-log'
import { createTransport, describeTarget, transportOf } from './transports'
import type * as SdkModule from './sdk'
import type { ServerEnd } from './stdio-transport'
import type { TunnelledMcpServers } from './tunnelled'
import { McpCallError, type McpCallResult, type McpContent, type McpLogLine, type McpServerState, type McpStatus, type McpToolInfo } from './types'

/** Options of one {@link McpConnection}. */
export interface McpConnectionOptions {
  definition: McpServerDefinition
  projectRoot: string
  /** The environment a stdio server starts from (Sous's secrets already removed); its `env` goes on top. */
  childEnv: Record<string, string>
  /** How long starting (spawn + initialize + lists) may take (`MCP_TIMEOUT`). */
  connectTimeoutMs: number
  /** Wall-clock limit of one tool call when the server sets no `timeout` (`MCP_TOOL_TIMEOUT`). */
  callTimeoutMs: number
  clientVersion: string
  /** The servers the local Sous runs for this remote host (a `tunnel` definition's transport). */
  tunnelled?: TunnelledMcpServers
  /** Status, tools, resources, prompts or logs changed. */
  onChange(): void
}

type Sdk = typeof SdkModule

/**
 * One MCP server: its transport, its SDK client, and what it offers. Starting never throws: it
 * ends `connected` or `failed` with a one-line reason. A crash moves a connected server to
 * `failed`; its calls then fail with a message the model can act on, and `restart` brings it back.
 * Each start is a generation, so callbacks of a closed attempt change nothing.
 */
export class McpConnection {
  private status: McpStatus = 'pending'
  private error: string | undefined
  private client: Client | undefined
  private generation = 0
  private exit: ServerEnd | undefined
  private readonly logs = new ServerLog()
  private lists: Pick<McpServerState, 'tools' | 'resources' | 'prompts' | 'serverInfo' | 'instructions'> = { tools: [], resources: [], prompts: [] }

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.definition.name
  }

  get definition(): McpServerDefinition {
    return this.options.definition
  }

  get current(): McpStatus {
    return this.status
  }

  /** The tools as last listed; a new array whenever the list changes (so callers can cache by identity). */
  get toolList(): readonly McpToolInfo[] {
    return this.lists.tools
  }

  /** The server's own name for itself and its transport, for labels. */
  get transportName(): 'stdio' | 'http' | 'sse' {
    return transportOf(this.options.definition)
  }

  /** A copy of everything known, for views and the tool pool. */
  snapshot(): McpServerState {
    const definition = this.options.definition
    return {
      name: definition.name,
      scope: definition.scope,
      transport: transportOf(definition),
      ...(definition.file && { file: definition.file }),
      status: this.status,
      ...(this.error && { error: this.error }),
      warnings: [...definition.warnings],
      ...this.lists,
      tools: [...this.lists.tools],
      resources: [...this.lists.resources],
      prompts: [...this.lists.prompts],
      logs: this.logs.lines(),
    }
  }

  /**
   * Holds the server back without starting it (`disabled`, `needs-approval`, `untrusted`), or
   * marks it `pending` again (turned back on before its project's servers started).
   */
  hold(status: 'pending' | 'disabled' | 'needs-approval' | 'untrusted', reason: string): void {
    this.status = status
    this.error = reason || undefined
    if (reason) this.log('sous', `held back: ${reason}`)
    this.options.onChange()
  }

  /** Starts the server and reads its tools, resources and prompts. Never throws. */
  async connect(): Promise<void> {
    const generation = ++this.generation
    this.exit = undefined
    this.set('connecting')
    this.log('sous', `starting (${describeTarget(this.options.definition.config)})`)
    const started = performance.now()
    let sdk: Sdk
    try {
      sdk = await import('./sdk')
    } catch (error) {
      return this.fail(generation, `the MCP client could not be loaded: ${(error as Error).message}`)
    }
    if (generation !== this.generation) return
    const { Client, ListRootsRequestSchema, LoggingMessageNotificationSchema } = sdk
    const client = new Client({ name: 'sous', version: this.options.clientVersion }, { capabilities: { roots: {} }, listChanged: this.listChangedHandlers(generation) })
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(this.options.projectRoot).href, name: 'project' }] }))
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
      if (generation !== this.generation) return
      const data = notification.params.data
      this.log('server', `${notification.params.level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`)
    })
    client.onerror = (error) => generation === this.generation && this.log('sous', `transport error: ${error.message}`)
    client.onclose = () => this.closed(generation)
    let transport: Transport
    try {
      transport = this.transport(generation, sdk)
    } catch (error) {
      return this.fail(generation, (error as Error).message)
    }
    this.client = client
    try {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs })
      if (generation !== this.generation) return
      const [tools, resources, prompts] = await Promise.all([
        listTools(client, (line) => this.log('sous', line)),
        listResources(client, (line) => this.log('sous', line)),
        listPrompts(client, (line) => this.log('sous', line)),
      ])
      if (generation !== this.generation) return
      const info = client.getServerVersion()
      const instructions = client.getInstructions()
      this.lists = { tools, resources, prompts, ...(info && { serverInfo: { name: info.name, version: info.version } }), ...(instructions && { instructions }) }
      this.log('sous', `connected in ${Math.round(performance.now() - started)} ms: ${tools.length} tools, ${resources.length} resources, ${prompts.length} prompts`)
      this.set('connected')
    } catch (error) {
      if (generation !== this.generation) return
      await client.close().catch(() => undefined)
      this.fail(generation, this.startFailure(error))
    }
  }

  /** Closes and starts again. */
  async restart(): Promise<void> {
    await this.close()
    await this.connect()
  }

  /**
   * Calls one tool. Throws {@link McpCallError} with a message for the model when the server is not
   * connected, times out, stops mid-call or answers with a protocol error; an abort rethrows as is.
   */
  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    return this.request(`calling ${tool}`, signal, async (client, options) => toCallResult(await client.callTool({ name: tool, arguments: args }, undefined, options)))
  }

  /** Reads one resource's contents. Throws like {@link callTool}. */
  readResource(uri: string, signal: AbortSignal): Promise<McpContent[]> {
    return this.request(`reading ${uri}`, signal, async (client, options) => (await client.readResource({ uri }, options)).contents.map((item) => toContent({ type: 'resource', resource: item })))
  }

  /** Renders one prompt with its arguments. Throws like {@link callTool}. */
  getPrompt(prompt: string, args: Record<string, string>, signal: AbortSignal): Promise<Array<{ role: 'user' | 'assistant'; content: McpContent }>> {
    return this.request(`getting prompt ${prompt}`, signal, async (client, options) =>
      (await client.getPrompt({ name: prompt, arguments: args }, options)).messages.map((message) => ({ role: message.role, content: toContent(message.content) })),
    )
  }

  /** One request with the call timeout and its own abort signal; failures become {@link McpCallError}s. */
  private async request<T>(what: string, signal: AbortSignal, run: (client: Client, options: { signal: AbortSignal; timeout: number; maxTotalTimeout: number }) => Promise<T>): Promise<T> {
    const client = this.ready()
    const timeout = this.callTimeout()
    const call = childSignal(signal)
    try {
      return await run(client, { signal: call.signal, timeout, maxTotalTimeout: timeout })
    } catch (error) {
      throw this.callFailure(error, what, timeout, signal)
    } finally {
      call.release()
    }
  }

  /** Stops the server (its whole process group, for stdio). Idempotent. */
  async close(): Promise<void> {
    this.generation++
    const client = this.client
    this.client = undefined
    if (this.status === 'connected' || this.status === 'connecting') this.set('pending')
    await client?.close().catch(() => undefined)
  }

  private transport(generation: number, sdk: Sdk): Transport {
    return createTransport(sdk, this.name, this.options.definition.config, {
      projectRoot: this.options.projectRoot,
      ...(this.options.tunnelled && { tunnelled: this.options.tunnelled }),
      childEnv: this.options.childEnv,
      onStderr: (line) => generation === this.generation && this.log('stderr', line),
      onExit: (end) => {
        if (generation !== this.generation) return
        this.exit = end
        this.log('sous', describeEnd(end))
      },
    })
  }

  private listChangedHandlers(generation: number) {
    const refresh = (what: 'tools' | 'resources' | 'prompts') => ({
      autoRefresh: false,
      debounceMs: 50,
      onChanged: () => void this.refresh(generation, what),
    })
    return { tools: refresh('tools'), resources: refresh('resources'), prompts: refresh('prompts') }
  }

  /** A `list_changed` notification: fetch that list again (a failed fetch keeps the old list). */
  private async refresh(generation: number, what: 'tools' | 'resources' | 'prompts'): Promise<void> {
    const client = this.client
    if (!client || generation !== this.generation) return
    const log = (line: string) => this.log('sous', line)
    try {
      if (what === 'tools') this.lists.tools = await listTools(client, log, true)
      if (what === 'resources') this.lists.resources = await listResources(client, log, true)
      if (what === 'prompts') this.lists.prompts = await listPrompts(client, log, true)
    } catch (error) {
      this.log('sous', `refreshing ${what} failed, keeping the previous list: ${(error as Error).message}`)
      return
    }
    if (generation !== this.generation) return
    this.log('sous', `${what} changed (${this.lists[what].length})`)
    this.options.onChange()
  }

  private ready(): Client {
    if (this.status !== 'connected' || !this.client) {
      const why = this.error ? ` (${this.error})` : this.status === 'connecting' ? ' (still starting)' : ''
      throw new McpCallError(`MCP server "${this.name}" is not connected${why}. Its tools cannot be used until the server is restarted.`)
    }
    return this.client
  }

  private callTimeout(): number {
    const own = this.options.definition.config.timeout
    return own !== undefined && own >= 1000 ? own : this.options.callTimeoutMs
  }

  private callFailure(error: unknown, what: string, timeout: number, signal: AbortSignal): unknown {
    if (signal.aborted) return error
    if (codeOf(error) === REQUEST_TIMEOUT) {
      this.log('sous', `no answer ${what} within ${formatMs(timeout)}; cancelled`)
      return new McpCallError(`MCP server "${this.name}" did not answer within ${formatMs(timeout)} (${what}); the call was cancelled. The server may be hung; it can be restarted.`)
    }
    if (codeOf(error) === CONNECTION_CLOSED) {
      return new McpCallError(`MCP server "${this.name}" stopped while ${what}: ${this.error ?? 'the connection closed'}.`)
    }
    const message = error instanceof Error ? error.message : String(error)
    return new McpCallError(`MCP server "${this.name}" failed ${what}: ${message}`)
  }

  private startFailure(error: unknown): string {
    const stderr = this.logs.lastStderr()
    // First: on a timeout the SDK closes the transport itself, so an exit follows the real cause.
    if (codeOf(error) === REQUEST_TIMEOUT) return `did not finish starting within ${formatMs(this.options.connectTimeoutMs)}`
    if (this.exit) return `${describeEnd(this.exit)} before it finished starting${stderr ? `: ${stderr}` : ''}`
    const message = error instanceof Error ? error.message : String(error)
    return `could not connect: ${message}${stderr ? ` (${stderr})` : ''}`
  }

  private closed(generation: number): void {
    if (generation !== this.generation || this.status !== 'connected') return
    const stderr = this.logs.lastStderr()
    const why = this.exit ? describeEnd(this.exit) : 'the connection closed'
    this.fail(generation, `${why}${stderr ? `: ${stderr}` : ''}`)
  }

  private fail(generation: number, error: string): void {
    if (generation !== this.generation) return
    this.client = undefined
    this.log('sous', `failed: ${error}`)
    this.set('failed', error)
  }

  private set(status: McpStatus, error?: string): void {
    this.status = status
    this.error = error
    this.options.onChange()
  }

  private log(source: McpLogLine['source'], text: string): void {
    this.logs.push(source, text)
    if (source !== 'sous') this.options.onChange()
  }
}
