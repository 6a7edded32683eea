import type { Readable, Writable } from 'node:stream'
import { err } from '../../../shared/ipc/result'
import type { Router } from '../router'
import type { EventLog } from './event-log'
import { mismatch, REMOTE_PROTOCOL, type Frame } from './frames'
import { openLineChannel } from './line-channel'
import type { McpTunnel } from './mcp-tunnel'
import type { ModelTunnel } from './model-tunnel'

/** Options of {@link serveRemoteHost}. */
export interface RemoteHostOptions {
  router: Router
  /** The host's numbered events (shared by every connection of a long-lived host). */
  events: EventLog
  input: Readable
  output: Writable
  version: string
  /** Who sends model requests: the client (`relay`, through `tunnel`) or this host (`own`). */
  model: 'relay' | 'own'
  /** With `relay`: the tunnel the host's model service fetches through. */
  tunnel?: ModelTunnel
  /** The MCP servers the client runs for this host (its hello names them; their messages come as `mcp.*`). */
  mcpTunnel?: McpTunnel
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
      if (options.mcpTunnel?.onFrame(frame)) return
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
    options.mcpTunnel?.offer(frame.localMcpServers ?? [])
    // A client that reconnects names the last event it saw: what it missed comes first. A number
    // past this log's newest was another host run's (this one started since): nothing is skipped.
    const resumeAfter = frame.resumeAfter !== undefined && frame.resumeAfter <= options.events.lastSeq() ? frame.resumeAfter : undefined
    let sent = resumeAfter ?? -1
    const forward = (event: { seq: number; channel: string; payload: unknown }): void => {
      if (event.seq <= sent) return
      sent = event.seq
      channel.send({ t: 'event', seq: event.seq, channel: event.channel, payload: event.payload })
    }
    unsubscribe = options.events.subscribe(forward)
    if (resumeAfter !== undefined) for (const event of options.events.since(resumeAfter)) forward(event)
  }

  const answer = async (id: number | string, name: string, payload: unknown): Promise<void> => {
    const result = await options.router.invoke(name, payload, { transport: 'stdio' })
    channel.send({ t: 'res', id, result: result as Extract<Frame, { t: 'res' }>['result'] })
  }

  channel.send({ t: 'hello', role: 'host', protocol: REMOTE_PROTOCOL, version: options.version, model: options.model, platform: process.platform, instance: options.events.instance })
  const done = channel.ended.then(() => {
    unsubscribe?.()
    options.tunnel?.failAll('The connection to the local Sous closed.')
    options.mcpTunnel?.failAll('the connection to the local Sous closed')
    return refusedWith ?? 'the client closed the connection'
  })
  return { done, send: (frame) => channel.send(frame) }
}
