import { mkdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { requests, type EventChannel, type SessionSummary, type EventPayload, type Project, type RecentRemote, type RemoteTarget, type RequestChannel } from '../../../shared/ipc/contract'
import { AppError, type Result } from '../../../shared/ipc/result'
import { writeFileAtomic } from '../../base/atomic-write'
import type { EventHub } from '../../base/event-hub'
import { createModelRelay } from '../../services/model/relay'
import { SOUS_VERSION } from '../version'
import { loadLocalMcpOffer } from './local-mcp-servers'
import { createPathMap, someString, type PathMap } from './path-map'
import { connectReconnecting, type ReconnectingHost } from './reconnecting'
import { remoteTransport } from './transport'

/** Options of {@link RemoteProjects}. */
export interface RemoteProjectsOptions {
  sousHome: string
  /** The local environment (credentials included: the relay sends with them; ssh never gets them). */
  env: NodeJS.ProcessEnv
  /** The app's key store: a key entered in Settings is what the relay sends with. */
  keyStore?: { get(): Promise<string | undefined> }
  /** The local hub: a remote's events are emitted here, paths mapped. */
  events: EventHub
  /** The user's home (`~/.claude.json`'s MCP servers, for `remoteLocalMcpServers`). Default: `HOME`. */
  userHome?: string
  log(message: string): void
}

interface Remote {
  target: RemoteTarget
  /** The project folder as the host sees it (inside a dev container, its workspace folder). */
  folder: string
  host: ReconnectingHost
  paths: PathMap
  /**
   * What this remote's terminal ids are prefixed with here (`r1:pty_3`): every host numbers its
   * PTYs from 1, so a remote's `pty_1` and a local `pty_1` must never meet.
   */
  tag: string
}

/** The requests whose answer names a session that lives on that remote. */
const OWNING = new Set<string>(['session.create', 'session.resume', 'session.continue'])
/** The events that name a terminal, and the field that does. */
const PTY_FIELD: Partial<Record<EventChannel, 'id' | 'ptyId'>> = { 'pty.data': 'id', 'pty.exit': 'id', 'agent.terminal': 'ptyId', 'agent.inputWait': 'ptyId' }

/**
 * The local side's remote projects: one connection per destination and folder (the system ssh,
 * `sous host --stdio` there, reconnecting with backoff), and the routing that sends a request
 * about a remote project — its path (`ssh://<destination>/…`), one of its sessions, terminals or
 * approvals — to its host instead of the local handlers. Model requests of the remote come back
 * through the relay and leave with the local key.
 */
export class RemoteProjects {
  private readonly remotes = new Map<string, Remote>()
  private readonly owners = new Map<string, Remote>()
  private readonly byTag = new Map<string, Remote>()

  constructor(private readonly options: RemoteProjectsOptions) {}

  /**
   * Connects (once per transport, destination and folder) and opens the folder there. Throws
   * AppError with the transport's message (ssh's, the devcontainer CLI's, the user command's) on failure.
   */
  async open(target: RemoteTarget): Promise<Project> {
    const name = shownName(target)
    const key = `${JSON.stringify(target.transport ?? { kind: 'ssh' })}\0${target.destination}\0${target.folder}`
    let remote = this.remotes.get(key)
    if (!remote) {
      remote = await this.connect(target, name)
      this.remotes.set(key, remote)
    }
    const opened = await remote.host.invoke('project.open', { path: remote.folder })
    if (!opened.ok) throw new AppError(opened.error.code, `${name}:${remote.folder}: ${opened.error.message}`)
    await this.remember(target)
    return { path: `${remote.paths.prefix}${opened.value.path}`, name: `${opened.value.name} (${name})`, openedAt: opened.value.openedAt }
  }

  /** Remotes opened before, newest first. */
  async recent(): Promise<RecentRemote[]> {
    try {
      const parsed = JSON.parse(await readFile(this.file(), 'utf8')) as unknown
      return Array.isArray(parsed) ? (parsed as RecentRemote[]).filter((entry) => typeof entry?.destination === 'string' && typeof entry?.folder === 'string') : []
    } catch {
      return []
    }
  }

  /**
   * Forwards `channel` to the remote it concerns and answers its result (paths mapped back), or
   * undefined when it concerns no remote (the local router answers). The payload was checked by
   * the caller against the contract.
   */
  async forward(channel: RequestChannel, payload: unknown): Promise<Result<unknown> | undefined> {
    const remote = this.routeOf(channel, payload)
    if (!remote) return undefined
    let outgoing = remote.paths.toRemote(payload) as Record<string, unknown>
    if (channel.startsWith('pty.') && typeof outgoing['id'] === 'string') outgoing = { ...outgoing, id: outgoing['id'].slice(remote.tag.length + 1) }
    const result = await remote.host.invoke(channel, outgoing as never)
    if (!result.ok) return result
    let value = remote.paths.toLocal(result.value as unknown)
    if (channel === 'pty.create') value = { ...(value as object), id: `${remote.tag}:${(value as { id: string }).id}` }
    const sessionId = OWNING.has(channel) ? (value as { sessionId?: unknown })?.sessionId : undefined
    if (typeof sessionId === 'string') this.owners.set(`session:${sessionId}`, remote)
    return { ok: true, value }
  }

  /**
   * The stored sessions of each connected remote project, for the local list of every project's
   * sessions (`session.list` without a project): their project path is the remote's
   * (`ssh://<name>/…`, which names the host), and each is routed to its host from then on. Only
   * the opened folder's (paths elsewhere there are not mapped); an id a local session has is
   * dropped, so a remote cannot take a local session's requests. A remote that fails is left out.
   */
  async listSessions(localIds: ReadonlySet<string>): Promise<SessionSummary[]> {
    const lists = await Promise.all(
      [...this.remotes.values()].map(async (remote) => {
        const listed = await remote.host.invoke('session.list', { projectPath: remote.folder })
        if (!listed.ok) return []
        return listed.value
          .filter((summary) => !localIds.has(summary.sessionId) && (!this.owners.has(`session:${summary.sessionId}`) || this.owners.get(`session:${summary.sessionId}`) === remote))
          .map((summary) => {
            this.owners.set(`session:${summary.sessionId}`, remote)
            return remote.paths.toLocal(summary)
          })
      }),
    )
    return lists.flat()
  }

  /** Ends every connection. */
  dispose(): void {
    for (const remote of this.remotes.values()) remote.host.close()
    this.remotes.clear()
  }

  private routeOf(channel: string, payload: unknown): Remote | undefined {
    const record = (payload ?? {}) as Record<string, unknown>
    if (typeof record['sessionId'] === 'string') {
      const owner = this.owners.get(`session:${record['sessionId']}`)
      if (owner) return owner
    }
    if (typeof record['id'] === 'string') {
      if (channel.startsWith('pty.')) return this.byTag.get(record['id'].split(':')[0] ?? '')
      const owner = channel.startsWith('approval.') ? this.owners.get(`approval:${record['id']}`) : undefined
      if (owner) return owner
    }
    for (const remote of this.remotes.values()) if (someString(payload, (text) => remote.paths.owns(text) && text.startsWith(`${remote.paths.prefix}${remote.folder}`))) return remote
    // A path of a destination opened for another folder still belongs to that machine.
    for (const remote of this.remotes.values()) if (someString(payload, remote.paths.owns)) return remote
    return undefined
  }

  private async connect(target: RemoteTarget, name: string): Promise<Remote> {
    const relay = createModelRelay({ env: this.options.env, ...(this.options.keyStore && { keyStore: this.options.keyStore }) })
    const transport = remoteTransport(target, { env: this.options.env })
    const prepared = await transport.prepare()
    if (!prepared.ok) throw new AppError('UNAVAILABLE', prepared.message)
    const paths = createPathMap(name, prepared.folder)
    const projectPath = `${paths.prefix}${prepared.folder}`
    // Filled once connected: a later reconnect to a restarted host recovers this remote's sessions.
    const made: { remote?: Remote } = {}
    // Read at each open, so a server marked `local` since the last one applies.
    const local = loadLocalMcpOffer({ sousHome: this.options.sousHome, userHome: this.options.userHome ?? this.options.env['HOME'] ?? homedir(), env: this.options.env })
    for (const problem of local.problems) this.options.log(`${name}: ${problem}`)
    const connected = await connectReconnecting({
      version: SOUS_VERSION,
      relay,
      ...(local.offer && { localMcp: local.offer }),
      onProblem: (message) => this.options.log(`${name}: ${message}`),
      onState: (state) => {
        const restarted = state.state === 'connected' && state.restarted === true
        const message =
          state.state === 'reconnecting' ? `reconnecting (attempt ${state.attempt}): ${state.reason}` : state.state === 'lost' ? state.reason : restarted ? `the host on ${name} had ended meanwhile: its turns in progress were interrupted` : undefined
        this.options.events.emit('remote.connection', { destination: name, projectPath, state: state.state, ...(message && { message }) })
        if (restarted && made.remote) void this.recover(made.remote)
      },
      open: () => transport.open(),
    })
    if (!connected.ok) throw new AppError('UNAVAILABLE', connected.message)
    const remote: Remote = { target, folder: prepared.folder, host: connected.host, paths, tag: `r${this.byTag.size + 1}` }
    made.remote = remote
    this.byTag.set(remote.tag, remote)
    connected.host.subscribe((channel, payload) => this.relayEvent(remote, channel, payload))
    return remote
  }

  /**
   * After a reconnect to a host that had ended (its grace period ran out, it was killed): each
   * session of this remote is resumed there from its transcript, and the window is told how its
   * cut turn ended — the interrupted calls' `tool_end` (the transcript repair marks them) and a
   * `turn_end` — so no card spins forever. The conversation then goes on as after any resume.
   */
  private async recover(remote: Remote): Promise<void> {
    const sessions = [...this.owners].filter(([key, owner]) => owner === remote && key.startsWith('session:')).map(([key]) => key.slice('session:'.length))
    for (const sessionId of sessions) {
      const resumed = await remote.host.invoke('session.resume', { sessionId })
      if (!resumed.ok) {
        this.options.log(`${remote.target.destination}: session ${sessionId} could not be resumed: ${resumed.error.message}`)
        continue
      }
      const history = await remote.host.invoke('session.history', { sessionId })
      const cut = history.ok ? history.value.events.filter((event) => event.type === 'tool_end' && event.interrupted) : []
      for (const event of cut) this.relayEvent(remote, 'agent.event', event)
      this.relayEvent(remote, 'agent.event', { type: 'turn_end', sessionId, agentId: 'main', reason: 'aborted', message: `The host on ${remote.target.destination} ended while disconnected; the session was resumed from its transcript.` })
    }
  }

  /** A remote's event, into the local hub with its paths mapped; its approvals and terminals are routed back to it. */
  private relayEvent<C extends EventChannel>(remote: Remote, channel: C, payload: EventPayload<C>): void {
    let local = remote.paths.toLocal(payload) as Record<string, unknown>
    const field = PTY_FIELD[channel]
    if (field && typeof local[field] === 'string') local = { ...local, [field]: `${remote.tag}:${local[field]}` }
    // A remote must not make this window open a folder of this machine, or speak for another remote.
    if (channel === 'project.openRequested' || channel === 'remote.connection') return this.options.log(`${remote.target.destination}: sent ${channel}; dropped`)
    if (channel === 'approval.requested') this.owners.set(`approval:${(local as { id: string }).id}`, remote)
    try {
      this.options.events.emit(channel, local as EventPayload<C>)
    } catch (error) {
      this.options.log(`${remote.target.destination}: an event could not be passed on: ${String(error)}`)
    }
  }

  private file(): string {
    return join(this.options.sousHome, 'recent-remotes.json')
  }

  private async remember(target: RemoteTarget): Promise<void> {
    const entry: RecentRemote = { ...target, openedAt: new Date().toISOString() }
    const same = (old: RecentRemote): boolean => old.destination === target.destination && old.folder === target.folder && JSON.stringify(old.transport ?? null) === JSON.stringify(target.transport ?? null)
    const rest = (await this.recent()).filter((old) => !same(old))
    await mkdir(this.options.sousHome, { recursive: true }).catch(() => {})
    await writeFileAtomic(this.file(), JSON.stringify([entry, ...rest].slice(0, 10), null, 2)).catch((error: unknown) => this.options.log(`cannot save the recent remotes: ${String(error)}`))
  }
}

/**
 * The name a remote goes by here — in its tab, its paths (`ssh://<name>/…`) and messages: the ssh
 * destination or the user's name for a command transport; a dev container's is
 * `<destination or folder name>+devcontainer`, so it never shares paths with the plain ssh host. Pure.
 */
export function shownName(target: RemoteTarget): string {
  if (target.transport?.kind !== 'devcontainer') return target.destination
  return `${target.transport.local ? (target.folder.split('/').filter(Boolean).at(-1) ?? 'workspace') : target.destination}+devcontainer`
}

/**
 * Whether a channel may be forwarded at all: a request channel of the contract that is not this
 * machine's whatever its payload says — `settings.*` (the key, the endpoint, the user's
 * preferences: a key that happened to look like a remote path must never be sent there), `app.*`
 * and `remote.*`. A project's own settings files (`projectSettings.*`) are the remote's and go.
 */
export function forwardable(channel: unknown): channel is RequestChannel {
  return typeof channel === 'string' && Object.hasOwn(requests, channel) && !/^(settings|app|remote)\./.test(channel)
}
