import type { Readable, Writable } from 'node:stream'
import type { RequestChannel, RequestInput, RequestOutput } from '../../../shared/ipc/contract'
import { err, type Result } from '../../../shared/ipc/result'
import type { AnyEventListener } from '../../base/event-hub'
import { connectRemoteHost, type RemoteClientOptions, type RemoteHostClient } from './client'

/** A pipe to a remote host, as a transport opens it (ssh, a container's exec, a user's command). */
export interface OpenedPipe {
  input: Readable
  output: Writable
  /** Why the pipe could not carry a handshake (ssh's message and exit code); asked after a failed connect. */
  failure(): Promise<string>
  /** Ends the transport's process. */
  kill(): void
}

/** What a remote connection goes through. */
export type ConnectionState =
  /** `restarted`: the host answering now is another run than the one left (it ended meanwhile): its turns in progress were cut. */
  | { state: 'connected'; restarted?: boolean }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string } | { state: 'lost'; reason: string }

/** Options of {@link connectReconnecting}. */
export interface ReconnectingOptions extends Omit<RemoteClientOptions, 'input' | 'output' | 'resumeAfter' | 'owned'> {
  open(): OpenedPipe
  /** Told whenever the connection drops, retries and comes back (the app shows it; `-p` prints it). */
  onState?(state: ConnectionState): void
  /** Waits between attempts; default 0.5 s doubling to 8 s, 8 attempts. */
  backoffMs?: readonly number[]
}

/** A remote host connection that survives drops: the same API as a client, across reconnects. */
export interface ReconnectingHost {
  readonly hello: RemoteHostClient['hello']
  invoke<C extends RequestChannel>(channel: C, payload: RequestInput<C>): Promise<Result<RequestOutput<C>>>
  subscribe(listener: AnyEventListener): () => void
  /** Settles once the connection is lost for good (reconnecting gave up) or closed by us. */
  readonly lost: Promise<string>
  close(): void
}

const DEFAULT_BACKOFF = [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]

/**
 * Connects through `open()` and, when the pipe drops, opens a new one with backoff and resumes:
 * the new hello names the last event seen (the host replays what was missed, its turns having
 * kept running — host-daemon.ts) and the sessions stay owned. Requests made while disconnected
 * answer UNAVAILABLE. The first connection is not retried: its failure is the caller's to show.
 */
export async function connectReconnecting(options: ReconnectingOptions): Promise<{ ok: true; host: ReconnectingHost } | { ok: false; message: string }> {
  const owned = new Set<string>()
  const listeners = new Set<AnyEventListener>()
  const attempt = async (resumeAfter?: number): Promise<{ ok: true; client: RemoteHostClient; pipe: OpenedPipe } | { ok: false; message: string }> => {
    const pipe = options.open()
    const connected = await connectRemoteHost({ ...options, input: pipe.input, output: pipe.output, owned, ...(resumeAfter !== undefined && { resumeAfter }) })
    if (connected.ok) return { ok: true, client: connected.client, pipe }
    pipe.kill()
    const why = /ended before the handshake|did not say hello/.test(connected.message) ? await pipe.failure() : connected.message
    return { ok: false, message: why }
  }
  const first = await attempt()
  if (!first.ok) return first
  let current: RemoteHostClient | undefined = first.client
  let pipe = first.pipe
  let closing = false
  let markLost!: (reason: string) => void
  const lost = new Promise<string>((resolve) => (markLost = resolve))
  const fanOut: AnyEventListener = (channel, payload) => {
    for (const listener of listeners) listener(channel, payload)
  }

  const follow = (client: RemoteHostClient): void => {
    client.subscribe(fanOut)
    void client.closed.then(async (reason) => {
      if (current !== client) return
      current = undefined
      pipe.kill()
      if (closing) return markLost('closed')
      const backoff = options.backoffMs ?? DEFAULT_BACKOFF
      for (let index = 0; index < backoff.length && !closing; index++) {
        const delayMs = backoff[index] ?? 1000
        options.onState?.({ state: 'reconnecting', attempt: index + 1, delayMs, reason })
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        if (closing) break
        const next = await attempt(client.lastSeq())
        if (next.ok) {
          const restarted = next.client.hello.instance !== client.hello.instance
          current = next.client
          pipe = next.pipe
          options.onState?.({ state: 'connected', ...(restarted && { restarted }) })
          return follow(next.client)
        }
        reason = next.message
      }
      options.onState?.({ state: 'lost', reason })
      markLost(reason)
    })
  }
  follow(first.client)

  return {
    ok: true,
    host: {
      hello: first.client.hello,
      lost,
      invoke(channel, payload) {
        if (!current) return Promise.resolve(err('UNAVAILABLE', 'The remote host is reconnecting; try again in a moment.'))
        return current.invoke(channel, payload)
      },
      subscribe(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      close() {
        closing = true
        if (current) current.close()
        else markLost('closed')
      },
    },
  }
}
