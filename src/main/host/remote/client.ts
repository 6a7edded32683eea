import type { Readable, Writable } from 'node:stream'
import { events as eventSchemas, requests, type EventChannel, type RequestChannel, type RequestInput, type RequestOutput } from '../../../shared/ipc/contract'
import { err, ok, type Result } from '../../../shared/ipc/result'
import type { AnyEventListener } from '../../base/event-hub'
import type { RelayedRequest, RelaySink } from '../../services/model/relay'
import { mismatch, REMOTE_PROTOCOL, type Frame, type FrameOf, type Hello } from './frames'
import { openLineChannel } from './line-channel'
import { serveLocalMcp, type LocalMcpOffer } from './local-mcp'

/** Options of {@link connectRemoteHost}. */
export interface RemoteClientOptions {
  /** The host's stdout. */
  input: Readable
  /** The host's stdin. */
  output: Writable
  version: string
  /** Sends the host's model requests with the local key (services/model/relay.ts); without it they are refused. */
  relay?: (request: RelayedRequest, sink: RelaySink) => Promise<void>
  /** The MCP servers the user marked `local` (local-mcp-servers.ts): offered in our hello, run here on the host's `mcp.open`. */
  localMcp?: LocalMcpOffer
  /** What the host did wrong (a bad frame, an event of a session it does not own…): told, then dropped. */
  onProblem?(message: string): void
  /** How long to wait for the host's hello. Default 60 s (ssh may ask an agent, jump a host…). */
  helloTimeoutMs?: number
  /** Reconnecting: the last event seen on the previous connection (the host replays the rest). */
  resumeAfter?: number
  /** Reconnecting: the sessions (and `pty:<id>` terminals) the previous connection owned (shared, so they stay owned). */
  owned?: Set<string>
}

/** A connected remote host: the contract, as the local router would serve it. */
export interface RemoteHostClient {
  readonly hello: Hello
  /** One request; the answer is checked against the contract's output schema. Never rejects. */
  invoke<C extends RequestChannel>(channel: C, payload: RequestInput<C>): Promise<Result<RequestOutput<C>>>
  /** Every checked event of a session this connection owns (and every event that names no session). */
  subscribe(listener: AnyEventListener): () => void
  /** Settles when the pipe ended, with why. */
  readonly closed: Promise<string>
  /** The sequence number of the last event received (for a reconnect's `resumeAfter`). */
  lastSeq(): number | undefined
  close(): void
}

/** The requests whose answer makes a session this connection's. */
const OWNING = new Set<string>(['session.create', 'session.resume', 'session.continue'])

/**
 * Connects to a remote host over a pipe: waits for its hello, checks its protocol and version
 * (a mismatch is refused with what to install), answers with our hello, then carries requests,
 * events and the model relay. Every frame is schema-checked; a bad one is reported and dropped.
 * An event for a session this connection did not create or resume is dropped. Never throws.
 */
export async function connectRemoteHost(options: RemoteClientOptions): Promise<{ ok: true; client: RemoteHostClient } | { ok: false; message: string }> {
  const problem = options.onProblem ?? (() => {})
  const owned = options.owned ?? new Set<string>()
  let lastSeq = options.resumeAfter
  const listeners = new Set<AnyEventListener>()
  const waiting = new Map<number, { channel: RequestChannel; resolve(result: Result<unknown>): void }>()
  const relays = new Map<string, AbortController>()
  let nextId = 0
  let greet: ((frame: Frame) => void) | undefined

  const channel = openLineChannel({
    input: options.input,
    output: options.output,
    onFrame(read) {
      if (!read.ok) return problem(`the remote host sent a bad frame: ${read.message}`)
      if (greet) return greet(read.frame)
      handle(read.frame)
    },
  })

  const localMcp = options.localMcp && serveLocalMcp(options.localMcp, (frame) => channel.send(frame))
  const handle = (frame: Frame): void => {
    if (frame.t === 'mcp.open' || frame.t === 'mcp.send' || frame.t === 'mcp.close') {
      if (!localMcp?.onFrame(frame)) channel.send({ t: 'mcp.closed', id: frame.id, message: 'this Sous offers no local MCP servers' })
      return
    }
    switch (frame.t) {
      case 'res':
        return answered(frame)
      case 'event':
        return delivered(frame)
      case 'model.request':
        return void relayed(frame)
      case 'model.abort':
        relays.get(frame.id)?.abort()
        return
      case 'bad-frame':
        return problem(`the remote host could not read a frame of ours: ${frame.message}`)
      default:
        return problem(`the remote host sent an unexpected "${frame.t}" frame; dropped`)
    }
  }

  const answered = (frame: FrameOf<'res'>): void => {
    const entry = typeof frame.id === 'number' ? waiting.get(frame.id) : undefined
    if (!entry) return problem(`the remote host answered a request we did not send (${String(frame.id)}); dropped`)
    waiting.delete(frame.id as number)
    if (!frame.result.ok) return entry.resolve(frame.result)
    const checked = requests[entry.channel].output.safeParse(frame.result.value)
    if (!checked.success) {
      problem(`the remote host's answer to ${entry.channel} does not match the contract; dropped`)
      return entry.resolve(err('INTERNAL', `The remote host's answer to ${entry.channel} does not match the contract.`))
    }
    const value = checked.data as { sessionId?: unknown }
    if (OWNING.has(entry.channel) && typeof value?.sessionId === 'string') owned.add(value.sessionId)
    if (entry.channel === 'pty.create') owned.add(`pty:${(checked.data as { id: string }).id}`)
    entry.resolve(ok(checked.data))
  }

  const delivered = (frame: FrameOf<'event'>): void => {
    lastSeq = frame.seq
    if (!Object.hasOwn(eventSchemas, frame.channel)) return problem(`the remote host sent an event on an unknown channel ${JSON.stringify(frame.channel.slice(0, 60))}; dropped`)
    const name = frame.channel as EventChannel
    const checked = eventSchemas[name].safeParse(frame.payload)
    if (!checked.success) return problem(`the remote host sent a ${name} event that does not match the contract; dropped`)
    const sessionId = (checked.data as { sessionId?: unknown }).sessionId
    if (typeof sessionId === 'string' && !owned.has(sessionId)) return problem(`the remote host sent an event for session ${sessionId.slice(0, 60)}, which it does not own here; dropped`)
    // A terminal is this connection's when it created it or an owned session's command runs on it.
    if (name === 'agent.terminal') owned.add(`pty:${(checked.data as { ptyId: string }).ptyId}`)
    if ((name === 'pty.data' || name === 'pty.exit') && !owned.has(`pty:${(checked.data as { id: string }).id}`)) return problem(`the remote host sent ${name} for a terminal it did not open here; dropped`)
    for (const listener of listeners) {
      try {
        listener(name, checked.data as never)
      } catch (error) {
        problem(`an event listener failed: ${String(error)}`)
      }
    }
  }

  const relayed = async (frame: FrameOf<'model.request'>): Promise<void> => {
    if (!options.relay) return void channel.send({ t: 'model.error', id: frame.id, message: 'this connection relays no model requests (the host was started with its own key)' })
    const controller = new AbortController()
    relays.set(frame.id, controller)
    await options.relay(
      { method: frame.method, path: frame.path, headers: frame.headers, body: frame.body, signal: controller.signal },
      {
        head: (status, headers) => void channel.send({ t: 'model.head', id: frame.id, status, headers }),
        chunk: (data) => void channel.send({ t: 'model.chunk', id: frame.id, data }),
        end: () => void channel.send({ t: 'model.end', id: frame.id }),
        error: (message) => void channel.send({ t: 'model.error', id: frame.id, message }),
      },
    )
    relays.delete(frame.id)
  }

  const closed = channel.ended.then(() => {
    localMcp?.closeAll()
    for (const controller of relays.values()) controller.abort()
    for (const [id, entry] of waiting) {
      waiting.delete(id)
      entry.resolve(err('UNAVAILABLE', 'The connection to the remote host closed.'))
    }
    return 'the connection to the remote host closed'
  })

  const hello = await new Promise<{ ok: true; hello: Hello } | { ok: false; message: string }>((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, message: `the remote host did not say hello within ${Math.round((options.helloTimeoutMs ?? 60_000) / 1000)} s` }), options.helloTimeoutMs ?? 60_000)
    void closed.then(() => resolve({ ok: false, message: 'the remote host ended before the handshake' }))
    greet = (frame) => {
      if (frame.t === 'refused') return resolve({ ok: false, message: frame.message })
      if (frame.t !== 'hello' || frame.role !== 'host') return problem(`the remote host sent "${frame.t}" before its hello; dropped`)
      clearTimeout(timer)
      resolve({ ok: true, hello: frame })
    }
  })
  greet = undefined
  if (!hello.ok) {
    channel.close()
    return hello
  }
  const why = mismatch({ version: options.version }, hello.hello)
  if (why) {
    channel.close()
    return { ok: false, message: `the remote Sous does not match: ${why}` }
  }
  channel.send({ t: 'hello', role: 'client', protocol: REMOTE_PROTOCOL, version: options.version, ...(options.resumeAfter !== undefined && { resumeAfter: options.resumeAfter }), ...(options.localMcp && { localMcpServers: [...options.localMcp.names] }) })

  const client: RemoteHostClient = {
    hello: hello.hello,
    closed,
    lastSeq: () => lastSeq,
    invoke(name, payload) {
      const id = ++nextId
      return new Promise((resolve) => {
        waiting.set(id, { channel: name, resolve: resolve as (result: Result<unknown>) => void })
        if (!channel.send({ t: 'req', id, channel: name, payload })) {
          waiting.delete(id)
          resolve(err('UNAVAILABLE', 'The connection to the remote host is closed.'))
        }
      })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close: () => channel.close(),
  }
  return { ok: true, client }
}
