import { stat } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type InitializeResponse, type SessionModeState, type SessionUpdate } from '@agentclientprotocol/sdk'
import type { PermissionModeName } from '../../../shared/ipc/contract'
import type { EventHub } from '../../base/event-hub'
import type { Router } from '../router'
import { carryApprovals } from './asker'
import { coreCall, type CoreCall } from './core-call'
import { mcpConfigText } from './mcp-servers'
import { modeState, offeredMode } from './modes'
import { promptParts } from './prompt-content'
import { runTurn } from './turn'
import { UpdateMapper } from './updates'

/** What the ACP adapter is built over: the same core every host runs, plus what only it asks. */
export interface AcpAgentOptions {
  router: Router
  events: EventHub
  version: string
  /** Whether Sous's own credentials lookup finds a model key (the key never comes from the client). */
  hasCredentials(): Promise<boolean>
  /** A live session's permission mode (for a resumed one). */
  modeOf(sessionId: string): PermissionModeName | undefined
  /** The client's MCP servers for a project (a `--mcp-config` JSON text; undefined: none). */
  setMcpConfig(projectPath: string, config: string | undefined): void
  /** Waits (bounded by `MCP_TIMEOUT`) until the named servers of a project's open session connected or failed. */
  whenMcpReady(projectPath: string, names: readonly string[]): Promise<void>
  log(message: string): void
}

interface AcpSession {
  cwd: string
  modes: SessionModeState
  mapper: UpdateMapper
  /** The session's updates, written in order. */
  queue: Promise<void>
  turn?: { cancelled: boolean }
  /** Said before the first reply: the folder's own configuration is not obeyed until it is trusted. */
  note?: string
}

const NO_KEY = 'Sous found no model key. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the environment the editor starts `sous acp` with — in Zed, the "env" of its agent_servers entry — and restart the agent.'

/**
 * `sous acp`: an Agent Client Protocol agent over Sous's core. Every request becomes contract
 * requests on the router (`session.create`, `session.prompt`, `approval.reply`…) and every event
 * of the session's hub an ACP update, so the engine, tools, permission rules, hooks, sandbox and
 * transcripts are the app's own; ACP only carries what the user sees and answers. The client's
 * answers can never do more than the app's approval card: rules and hooks decide first, and only
 * what they leave to the user reaches `session/request_permission`.
 */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const call: CoreCall = coreCall(options.router)
  const sessions = new Map<string, AcpSession>()
  let peer: AgentContext | undefined
  carryApprovals({
    call,
    events: options.events,
    client: () => peer,
    session: (sessionId) => {
      const open = sessions.get(sessionId)
      return open && { cancelled: open.turn?.cancelled ?? false }
    },
    log: options.log,
  })
  const session = (sessionId: string): AcpSession => {
    const found = sessions.get(sessionId)
    if (!found) throw RequestError.sessionNotFound(sessionId)
    return found
  }
  const send = (client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> => {
    const open = session(sessionId)
    open.queue = open.queue.then(() => client.notify('session/update', { sessionId, update })).catch((error: unknown) => options.log(`session/update: ${String(error)}`))
    return open.queue
  }
  const needKey = async (): Promise<void> => {
    if (!(await options.hasCredentials())) throw RequestError.authRequired(undefined, NO_KEY)
  }
  /**
   * The `/name` commands the user can type (skills, custom commands, MCP prompts; the session
   * expands them as in the app), sent once the client knows the session: after this answer.
   */
  const announceCommands = (client: AgentContext, sessionId: string, projectPath: string): void => {
    setTimeout(() => {
      void call('extensions.list', { projectPath })
        .then((overview) => send(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands: overview.slashCommands.map((command) => ({ name: command.name, description: command.description, ...(command.argumentHint && { input: { hint: command.argumentHint } }) })) }))
        .catch((error: unknown) => options.log(`extensions.list: ${String(error)}`))
    }, 0)
  }
  const folder = async (cwd: string): Promise<void> => {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, 'cwd must be an absolute path')
    if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) throw RequestError.invalidParams({ cwd }, `cwd is not a folder: ${cwd}`)
  }
  return agent({ name: 'sous' })
    .onRequest('initialize', async ({ params }): Promise<InitializeResponse> => {
      if (!Number.isInteger(params.protocolVersion) || params.protocolVersion < 1) {
        throw new RequestError(-32022, `Unsupported protocol version: the client asked for ACP ${params.protocolVersion}; Sous ${options.version} speaks ACP ${PROTOCOL_VERSION}. Update the editor's ACP support.`, { requested: params.protocolVersion, supported: [PROTOCOL_VERSION] })
      }
      // A newer client is answered with the version Sous speaks; the client decides whether it can (ACP's negotiation).
      if (params.protocolVersion !== PROTOCOL_VERSION) options.log(`the client asked for ACP ${params.protocolVersion}; answering with ACP ${PROTOCOL_VERSION}`)
      const keyed = await options.hasCredentials()
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: 'sous', title: 'Sous', version: options.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {} },
        },
        // The key stays with Sous: the only "method" is to give Sous's environment one.
        authMethods: keyed ? [] : [{ id: 'sous-environment', name: 'Model key in the environment', description: NO_KEY }],
      }
    })
    .onRequest('authenticate', async () => {
      await needKey()
      return {}
    })
    .onRequest('session/new', async ({ params, client }) => {
      peer = client
      await needKey()
      await folder(params.cwd)
      options.setMcpConfig(params.cwd, mcpConfigText(params.mcpServers))
      const created = await call('session.create', { projectPath: params.cwd })
      // The editor's servers are part of the session it asked for: their tools are there from the first prompt.
      if (params.mcpServers.length > 0) await options.whenMcpReady(params.cwd, params.mcpServers.map((server) => server.name))
      const modes = modeState(created.mode ?? 'default', { ...(created.autoModeOff && { autoModeOff: true }) })
      const note = await trustNote(call, params.cwd)
      sessions.set(created.sessionId, { cwd: params.cwd, modes, mapper: new UpdateMapper(), queue: Promise.resolve(), ...(note && { note }) })
      announceCommands(client, created.sessionId, params.cwd)
      return { sessionId: created.sessionId, modes }
    })
    .onRequest('session/load', async ({ params, client }) => {
      peer = client
      await needKey()
      await folder(params.cwd)
      options.setMcpConfig(params.cwd, mcpConfigText(params.mcpServers))
      const history = await call('session.history', { sessionId: params.sessionId })
      if (!sessions.has(params.sessionId)) await call('session.resume', { sessionId: params.sessionId })
      const modes = modeState(options.modeOf(params.sessionId) ?? 'default', {})
      const replay = new UpdateMapper(true)
      const open: AcpSession = { cwd: history.summary.projectPath, modes, mapper: new UpdateMapper(), queue: Promise.resolve() }
      sessions.set(params.sessionId, open)
      // The conversation so far, as the updates a live turn would have sent.
      for (const event of history.events) for (const update of replay.map(event)) void send(client, params.sessionId, update)
      await open.queue
      announceCommands(client, params.sessionId, open.cwd)
      return { modes }
    })
    .onRequest('session/list', async ({ params }) => {
      const stored = await call('session.list', { ...(params.cwd && { projectPath: params.cwd }) })
      return { sessions: stored.map((summary) => ({ sessionId: summary.sessionId, cwd: summary.projectPath, title: summary.title, updatedAt: summary.updatedAt })) }
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const open = session(params.sessionId)
      const mode = offeredMode(open.modes, params.modeId)
      if (!mode) throw RequestError.invalidParams({ modeId: params.modeId }, `Sous offers no mode "${params.modeId}" here (offered: ${open.modes.availableModes.map((m) => m.id).join(', ')})`)
      await call('session.setMode', { sessionId: params.sessionId, mode })
      open.modes = { ...open.modes, currentModeId: mode }
      return {}
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      const open = session(params.sessionId)
      if (open.turn) throw RequestError.invalidRequest(undefined, 'a turn of this session is still running; cancel it or wait for its answer')
      const parts = promptParts(params.prompt)
      if (!parts.ok) throw RequestError.invalidParams(undefined, parts.message)
      const turn = { cancelled: false }
      open.turn = turn
      if (open.note) void send(client, params.sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${open.note}\n\n` } })
      open.note = undefined
      try {
        return await runTurn(
          {
            sessionId: params.sessionId,
            call,
            events: options.events,
            mapper: open.mapper,
            send: (update) => send(client, params.sessionId, update),
            flush: () => open.queue,
            cancelled: () => turn.cancelled,
            log: options.log,
          },
          parts.text,
          parts.images,
        )
      } finally {
        open.turn = undefined
      }
    })
    .onNotification('session/cancel', async ({ params }) => {
      const turn = sessions.get(params.sessionId)?.turn
      if (!turn) return
      turn.cancelled = true
      await call('session.abort', { sessionId: params.sessionId }).catch((error: unknown) => options.log(`session.abort: ${String(error)}`))
    })
}

/**
 * What to tell the user about a folder Sous has not trusted: ACP has no trust dialog, so the
 * folder's own hooks, allow rules, loosening settings and `.mcp.json` servers stay ignored (as in
 * the app before its trust step) until it is trusted in the app. Undefined when nothing waits.
 */
async function trustNote(call: CoreCall, projectPath: string): Promise<string | undefined> {
  const status = await call('trust.status', { projectPath }).catch(() => undefined)
  if (!status || status.state === 'trusted' || !status.needsReview) return undefined
  const what = status.state === 'changed' ? `changed since it was trusted (${status.changed.join(', ')})` : 'not trusted yet'
  return `Sous: this folder's own configuration is ${what}, so its hooks, allow rules, extra directories and .mcp.json servers are ignored. Open the folder in the Sous app and trust it to use them.`
}
