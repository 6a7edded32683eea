import type { McpMessage as JSONRPCMessage, McpTransport as Transport, TunnelledMcpServers } from '../../services/mcp/tunnelled'
import { MAX_MCP_MESSAGE_CHARS, type Frame } from './frames'

/** The remote host's end of the local MCP servers: transports for the MCP manager, fed by `mcp.*` frames. */
export interface McpTunnel extends TunnelledMcpServers {
  /** The names the connected client offers (its hello's `localMcpServers`); then each `onOffer` listener runs. */
  offer(names: readonly string[]): void
  /** Runs after each offer (a client connected or reconnected): the host restarts what the last drop ended. */
  onOffer(listener: () => void): void
  /** Takes the `mcp.*` frames of the client; false for any other frame. */
  onFrame(frame: Frame): boolean
  /** Ends every open transport (the connection is gone): their calls fail with this message. */
  failAll(message: string): void
}

/**
 * Builds the host side over `send` (like the model tunnel). The host never sees how a local server
 * is started — only the names the client offered — and can ask for nothing else: the client
 * answers `mcp.open` for any other name with `mcp.closed`. Each opened transport has its own id,
 * so messages of a server's earlier run (before a restart) reach nobody.
 */
export function createMcpTunnel(send: (frame: Frame) => boolean): McpTunnel {
  const open = new Map<string, TunnelTransport>()
  let offered: readonly string[] = []
  let next = 0
  const listeners: Array<() => void> = []
  return {
    names: () => offered,
    offer(names) {
      offered = [...names]
      for (const listener of listeners) listener()
    },
    onOffer: (listener) => void listeners.push(listener),
    transport(name, onEnd) {
      const id = `p${++next}`
      const transport = new TunnelTransport(id, name, send, (reason) => {
        open.delete(id)
        if (reason) onEnd({ gone: reason })
      })
      open.set(id, transport)
      return transport
    },
    onFrame(frame) {
      if (frame.t !== 'mcp.message' && frame.t !== 'mcp.closed') return false
      const transport = open.get(frame.id)
      if (!transport) return true // a run that already ended
      if (frame.t === 'mcp.message') transport.deliver(frame.message as JSONRPCMessage)
      else transport.end(`the local MCP server ended: ${frame.message}`)
      return true
    },
    failAll(message) {
      for (const transport of [...open.values()]) transport.end(message)
    },
  }
}

/** One run of a local server as the SDK's client sees it. */
class TunnelTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private ended: string | undefined

  constructor(
    private readonly id: string,
    private readonly server: string,
    private readonly write: (frame: Frame) => boolean,
    private readonly forget: (reason: string | undefined) => void,
  ) {}

  start(): Promise<void> {
    if (!this.write({ t: 'mcp.open', id: this.id, server: this.server })) {
      const reason = 'the connection to the local Sous is gone'
      this.end(reason)
      return Promise.reject(new Error(reason))
    }
    return Promise.resolve()
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.ended !== undefined) return Promise.reject(new Error(this.ended))
    if (JSON.stringify(message).length > MAX_MCP_MESSAGE_CHARS) return Promise.reject(new Error(`the message is larger than ${MAX_MCP_MESSAGE_CHARS / 1024 / 1024} MB, the most the remote channel carries`))
    if (this.write({ t: 'mcp.send', id: this.id, message })) return Promise.resolve()
    const reason = 'the connection to the local Sous is gone'
    this.end(reason)
    return Promise.reject(new Error(reason))
  }

  close(): Promise<void> {
    if (this.ended === undefined) this.write({ t: 'mcp.close', id: this.id })
    this.end(undefined)
    return Promise.resolve()
  }

  deliver(message: JSONRPCMessage): void {
    if (this.ended === undefined) this.onmessage?.(message)
  }

  /** Ends this run once: with a reason, the MCP client hears it as an error, then the close fails what waits. */
  end(reason: string | undefined): void {
    if (this.ended !== undefined) return
    this.ended = reason ?? 'closed'
    this.forget(reason)
    if (reason) this.onerror?.(new Error(reason))
    this.onclose?.()
  }
}
