import type { SousApi } from '../../../shared/ipc/api'
import type { EventChannel, EventPayload, RequestChannel, RequestInput, RequestOutput } from '../../../shared/ipc/contract'
import { createEventListeners } from '../../../shared/ipc/event-listeners'
import type { Result } from '../../../shared/ipc/result'

/** The part of the WebSocket API the client uses, so tests can pass Node's `ws`. */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
}
export type SocketFactory = (url: string, protocols?: string[]) => SocketLike

/** Where the connection is; the shell shows a banner for anything but `open`. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed'

export interface WsClientOptions {
  url: string
  /** Subprotocols to offer on every (re)connection: the browser host's socket key rides here. */
  protocols?: string[]
  /** Defaults to the browser's WebSocket. */
  connect?: SocketFactory
  /** First reconnect delay; doubles up to `maxDelayMs` (with jitter), reset once connected. */
  initialDelayMs?: number
  maxDelayMs?: number
}

/** A {@link SousApi} over a WebSocket, plus its connection state and a way to shut it down. */
export interface WsClient extends SousApi {
  readonly state: ConnectionState
  onState(listener: (state: ConnectionState) => void): () => void
  /** Closes for good: pending requests fail, no reconnect. */
  close(): void
}

interface Pending {
  channel: string
  resolve: (result: Result<unknown>) => void
}

const OPEN = 1

/**
 * Creates the browser transport. Wire shape: `{id, channel, payload}` → `{id, result}`, pushes
 * as `{event, payload}`.
 *
 * Contract: `invoke` never throws or rejects. Requests made while connecting are sent once the
 * socket opens; every request still unanswered when the socket closes resolves with an
 * `UNAVAILABLE` error naming the channel (the server may or may not have run it, so retrying is
 * the caller's call). The client then reconnects with exponential backoff until `close()`.
 */
export function createWsClient(options: WsClientOptions): WsClient {
  const connect = options.connect ?? ((url: string, protocols?: string[]) => new WebSocket(url, protocols) as unknown as SocketLike)
  const initialDelay = options.initialDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 5000
  const pending = new Map<number, Pending>()
  const queued: Array<{ id: number; text: string }> = []
  const listeners = createEventListeners()
  const stateListeners = new Set<(state: ConnectionState) => void>()
  let state: ConnectionState = 'connecting'
  let socket: SocketLike | undefined
  let nextId = 1
  let delay = initialDelay
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  function setState(next: ConnectionState): void {
    if (state === next) return
    state = next
    for (const listener of stateListeners) listener(next)
  }

  function open(): void {
    let current: SocketLike
    try {
      current = connect(options.url, options.protocols)
    } catch {
      // A malformed URL or a blocked scheme: treat it like a dropped connection and retry.
      onClosed()
      return
    }
    socket = current
    current.onopen = () => {
      delay = initialDelay
      setState('open')
      for (const item of queued.splice(0)) current.send(item.text)
    }
    current.onmessage = (event) => onMessage(event.data)
    current.onerror = () => undefined // `onclose` follows and does the work.
    current.onclose = () => {
      if (socket === current) onClosed()
    }
  }

  function onClosed(): void {
    socket = undefined
    failAll()
    if (closed) return setState('closed')
    setState('reconnecting')
    const wait = Math.min(delay, maxDelay) * (0.75 + Math.random() * 0.5)
    delay = Math.min(delay * 2, maxDelay)
    timer = setTimeout(open, wait)
  }

  function failAll(): void {
    queued.length = 0
    const lost = [...pending.values()]
    pending.clear()
    for (const request of lost) {
      request.resolve({
        ok: false,
        error: {
          code: 'UNAVAILABLE',
          message: closed
            ? `The connection to Sous was closed before "${request.channel}" finished.`
            : `The connection to Sous was lost before "${request.channel}" finished; reconnecting — please try again.`,
        },
      })
    }
  }

  function onMessage(data: unknown): void {
    let message: unknown
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data))
    } catch {
      return // Not ours to interpret; the server only sends JSON.
    }
    if (!message || typeof message !== 'object') return
    const record = message as Record<string, unknown>
    if (typeof record.id === 'number') {
      const request = pending.get(record.id)
      if (!request) return
      pending.delete(record.id)
      request.resolve(isResult(record.result) ? record.result : malformed(request.channel))
    } else if (typeof record.event === 'string') {
      listeners.dispatch(record.event, record.payload)
    }
  }

  open()

  return {
    transport: 'browser',
    get state() {
      return state
    },
    invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>> {
      if (closed) return Promise.resolve(unavailable(channel, 'the client was closed'))
      if (state === 'reconnecting' && !socket) {
        return Promise.resolve(unavailable(channel, 'not connected to Sous; reconnecting'))
      }
      const id = nextId++
      const text = JSON.stringify({ id, channel, payload: input })
      return new Promise((resolve) => {
        pending.set(id, { channel, resolve: resolve as (result: Result<unknown>) => void })
        if (socket && socket.readyState === OPEN) socket.send(text)
        else queued.push({ id, text })
      })
    },
    on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void {
      return listeners.add(channel, listener as (payload: unknown) => void)
    },
    onState(listener) {
      stateListeners.add(listener)
      return () => stateListeners.delete(listener)
    },
    close() {
      if (closed) return
      closed = true
      clearTimeout(timer)
      const current = socket
      current?.close(1000, 'client closed')
      // Do not wait for the close handshake: callers must not hang on a socket that is going away.
      socket = undefined
      failAll()
      setState('closed')
    },
  }
}

function isResult(value: unknown): value is Result<unknown> {
  if (!value || typeof value !== 'object') return false
  const record = value as Record<string, unknown>
  if (record.ok === true) return true
  const error = record.error as Record<string, unknown> | undefined
  return record.ok === false && !!error && typeof error.code === 'string' && typeof error.message === 'string'
}

function malformed(channel: string): Result<never> {
  return { ok: false, error: { code: 'INTERNAL', message: `Sous sent a malformed reply to "${channel}".` } }
}

function unavailable(channel: string, why: string): Result<never> {
  return { ok: false, error: { code: 'UNAVAILABLE', message: `Cannot call "${channel}": ${why}.` } }
}
