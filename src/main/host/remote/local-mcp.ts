import { describeEnd } from '../../services/mcp/convert'
import type { McpMessage as JSONRPCMessage, McpTransport as Transport } from '../../services/mcp/tunnelled'
import type { ServerEnd } from '../../services/mcp/stdio-transport'
import { MAX_MCP_MESSAGE_CHARS, type Frame, type FrameOf } from './frames'

/** The MCP servers this (local) Sous runs for a remote host: see local-mcp-servers.ts. */
export interface LocalMcpOffer {
  /** What the hello offers. */
  readonly names: readonly string[]
  /** A transport to one of them, not started yet; a string says why it cannot be made. */
  open(name: string, hooks: { onStderr(line: string): void; onExit(end: ServerEnd): void }): Promise<Transport | string>
}

/** The client's end of the tunnel: one local run per `mcp.open`. */
export interface LocalMcpHost {
  /** Takes the host's `mcp.*` frames; false for any other frame. */
  onFrame(frame: Frame): boolean
  /** Stops every local server (the connection ended: a reconnect opens them again). */
  closeAll(): void
}

/** The most local server processes one connection keeps running at once. */
const MAX_RUNS = 32

interface Run {
  transport?: Transport
  /** Settles once the server started (or could not): messages wait for it, in order. */
  ready: Promise<boolean>
  stderr: string
  ended: boolean
}

/**
 * Serves the host's `mcp.open` / `mcp.send` / `mcp.close` frames with the offered servers, on this
 * machine: each message of the server goes back as `mcp.message`, its end (or a failed start) as
 * one `mcp.closed` with why, so the remote's MCP client fails its calls at once instead of waiting
 * for a timeout. Only offered names start; the host chooses nothing about how.
 */
export function serveLocalMcp(offer: LocalMcpOffer, send: (frame: Frame) => boolean): LocalMcpHost {
  const runs = new Map<string, Run>()
  const closed = (id: string, message: string): void => {
    const run = runs.get(id)
    if (run?.ended) return
    if (run) run.ended = true
    runs.delete(id)
    send({ t: 'mcp.closed', id, message: message.slice(0, 2000) })
  }

  const opened = (frame: FrameOf<'mcp.open'>): void => {
    if (runs.has(frame.id)) return
    if (!offer.names.includes(frame.server)) return void send({ t: 'mcp.closed', id: frame.id, message: `this Sous runs no MCP server named "${frame.server}" for the remote` })
    // A host cannot make this machine start processes without bound: one run per project folder there is the norm.
    if (runs.size >= MAX_RUNS) return void send({ t: 'mcp.closed', id: frame.id, message: `this Sous already runs ${MAX_RUNS} local MCP servers for the remote` })
    const run: Run = { ready: Promise.resolve(false), stderr: '', ended: false }
    runs.set(frame.id, run)
    run.ready = (async () => {
      const made = await offer.open(frame.server, {
        onStderr: (line) => void (run.stderr = line),
        onExit: (end) => closed(frame.id, `${describeEnd(end)}${run.stderr ? `: ${run.stderr}` : ''}`),
      })
      if (typeof made === 'string') return closed(frame.id, made), false
      if (run.ended) return void (await made.close().catch(() => undefined)), false
      run.transport = made
      made.onmessage = (message) => forward(frame.id, message)
      made.onclose = () => closed(frame.id, `the server closed${run.stderr ? `: ${run.stderr}` : ''}`)
      try {
        await made.start()
        return true
      } catch (error) {
        closed(frame.id, `could not start: ${(error as Error).message}`)
        return false
      }
    })()
  }

  const forward = (id: string, message: JSONRPCMessage): void => {
    if (JSON.stringify(message).length <= MAX_MCP_MESSAGE_CHARS) return void send({ t: 'mcp.message', id, message })
    // Too big to travel: a request's answer becomes an error for that request, so nothing waits for it.
    if ('id' in message && ('result' in message || 'error' in message)) {
      send({ t: 'mcp.message', id, message: { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `the local server's answer is larger than ${MAX_MCP_MESSAGE_CHARS / 1024 / 1024} MB, the most the remote channel carries` } } })
    }
  }

  return {
    onFrame(frame) {
      switch (frame.t) {
        case 'mcp.open':
          opened(frame)
          return true
        case 'mcp.send': {
          const run = runs.get(frame.id)
          if (!run) return void send({ t: 'mcp.closed', id: frame.id, message: 'that run of the server has ended' }), true
          void run.ready.then(async (ok) => {
            if (ok) await run.transport?.send(frame.message as JSONRPCMessage).catch((error: Error) => closed(frame.id, `could not write to the server: ${error.message}`))
          })
          return true
        }
        case 'mcp.close': {
          const run = runs.get(frame.id)
          if (!run) return true
          run.ended = true
          runs.delete(frame.id)
          void run.ready.then(() => run.transport?.close().catch(() => undefined))
          return true
        }
        default:
          return false
      }
    },
    closeAll() {
      for (const [id, run] of [...runs]) {
        run.ended = true
        runs.delete(id)
        void run.ready.then(() => run.transport?.close().catch(() => undefined))
      }
    },
  }
}
