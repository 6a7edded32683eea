import type { Readable, Writable } from 'node:stream'
import { err } from '../../../shared/ipc/result'
import type { EventHub } from '../../base/event-hub'
import { coalesceDeltas } from '../coalesce-deltas'
import type { Router } from '../router'
import { mismatch, REMOTE_PROTOCOL, type Frame } from './frames'
import { openLineChannel } from './line-channel'
import type { ModelTunnel } from './model-tunnel'

/** Options of {@link serveRemoteHost}. */
export interface RemoteHostOptions {
  core: { router: Router; events: EventHub }
  input: Readable
  output: Writable
  version: string
  /** Who sends model requests: the client (`relay`, through `tunnel`) or this host (`own`). */
  model: 'relay' | 'own'
  /** With `relay`: the tunnel the host's model service fetches through. */
  tunnel?: ModelTunnel
  /** Problems worth a line on stderr (never a credential: none is here). */
  log(message: string): void
}

/** A served connection. */
export interface RemoteHostConnection {
  /** Settles when the client went away or was refused, with why. */
  readonly done: Promise<string>
  /** Writes a frame (the model tunnel's way out); false once the pipe is gone. */
  send(frame: Frame): boolean
}

/**
 * Serves the contract over a pipe (`sous host --stdio`): the same router and event hub as the
 * other transports, framed as in frames.ts. Writes `hello`, waits for the client's, refuses a
 * client of another version (`refused`, then ends). A frame that does not parse or fails its
 * schema is reported back (`bad-frame`, or an INVALID_INPUT answer when it had a request id) and
 * dropped; the connection stays. Requests reach the router as sender `stdio`.
 */
export function serveRemoteHost(options: RemoteHostOptions): RemoteHostConnection {
  let greeted = false
  let seq = 0
  let unsubscribe: (() => void) | undefined
  let refusedWith: string | undefined
  const channel = openLineChannel({
    input: options.input,
    output: options.output,
    onFrame(read) {
      if (!read.ok) {
        if (read.id !== undefined) channel.send({ t: 'res', id: read.id, result: err('INVALID_INPUT', read.message) })
        else channel.send({ t: 'bad-frame', message: read.message })
        return
      }
      const frame = read.frame
      if (!greeted) return greet(frame)
      if (options.tunnel?.onFrame(frame)) return
      if (frame.t === 'req') return void answer(frame.id, frame.channel, frame.payload)
      channel.send({ t: 'bad-frame', message: `A client does not send "${frame.t}" frames; dropped.` })
    },
  })

  const greet = (frame: Frame): void => {
    if (frame.t !== 'hello' || frame.role !== 'client') {
      if (frame.t === 'req') channel.send({ t: 'res', id: frame.id, result: err('UNAVAILABLE', 'Say hello first: the handshake has not happened.') })
      else channel.send({ t: 'bad-frame', message: 'Say hello first: the handshake has not happened.' })
      return
    }
    const why = mismatch({ version: options.version }, frame)
    if (why) {
      refusedWith = `The local Sous cannot drive this host: ${why}. Install the same version on both machines (npm i -g sous@${options.version}, or update the local app).`
      channel.send({ t: 'refused', message: refusedWith })
      channel.close()
      return
    }
    greeted = true
    const coalescer = coalesceDeltas((name, payload) => void channel.send({ t: 'event', seq: ++seq, channel: name, payload }))
    const stop = options.core.events.subscribe(coalescer.listener)
    unsubscribe = () => {
      stop()
      coalescer.flush()
    }
  }

  const answer = async (id: number | string, name: string, payload: unknown): Promise<void> => {
    const result = await options.core.router.invoke(name, payload, { transport: 'stdio' })
    channel.send({ t: 'res', id, result: result as Extract<Frame, { t: 'res' }>['result'] })
  }

  channel.send({ t: 'hello', role: 'host', protocol: REMOTE_PROTOCOL, version: options.version, model: options.model, platform: process.platform })
  const done = channel.ended.then(() => {
    unsubscribe?.()
    options.tunnel?.failAll('The connection to the local Sous closed.')
    return refusedWith ?? 'the client closed the connection'
  })
  return { done, send: (frame) => channel.send(frame) }
}
