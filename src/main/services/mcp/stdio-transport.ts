import { spawn, type ChildProcess } from 'node:child_process'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** How a stdio server ended, for the status line ("exited with code 1", "killed by SIGSEGV"). */
export interface ProcessEnd {
  code: number | null
  signal: NodeJS.Signals | null
}

/** How any server ended: its process, a start that failed, or (`gone`) a tunnel's end, said as is. */
export type ServerEnd = ProcessEnd | { error: string } | { gone: string }

/** Options of {@link ProcessTransport}. */
export interface ProcessTransportOptions {
  command: string
  args: string[]
  /** The whole environment of the child (nothing else is inherited). */
  env: Record<string, string>
  cwd: string
  /** Each line the server writes on stderr (its log). */
  onStderr(line: string): void
  /** The process ended (or could not start). */
  onExit(end: ProcessEnd | { error: string }): void
}

/**
 * The stdio transport, written here rather than taken from the SDK because Sous needs three things
 * the SDK's does not give: the child runs in its own process group so closing kills what it
 * started too (`npx` → `node`, a shell → its children); the exit code and signal are reported, so a
 * crash says how it crashed; and the environment is exactly the one given (the SDK merges in
 * variables from `process.env`). Framing (one JSON-RPC message per line) is the SDK's own.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  private child: ChildProcess | undefined
  private readonly buffer = new ReadBuffer()
  private stderrTail = ''
  private closed = false

  constructor(private readonly options: ProcessTransportOptions) {}

  /** The child's pid once started. */
  get pid(): number | undefined {
    return this.child?.pid
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        cwd: this.options.cwd,
        env: this.options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: closing signals the whole group, grandchildren included.
        detached: process.platform !== 'win32',
        windowsHide: true,
      })
      this.child = child
      child.once('error', (error) => {
        this.options.onExit({ error: error.message })
        reject(error)
        this.finish()
      })
      child.once('spawn', () => resolve())
      child.once('exit', (code, signal) => {
        this.flushStderr()
        this.options.onExit({ code, signal })
        this.finish()
      })
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk)
        } catch (error) {
          // One message over the buffer limit (10 MB): the stream cannot be re-synchronized.
          this.onerror?.(error as Error)
          void this.close()
          return
        }
        for (;;) {
          let message: JSONRPCMessage | null
          try {
            message = this.buffer.readMessage()
          } catch (error) {
            // A line that is not JSON-RPC (a stray console.log): report it, keep reading.
            this.onerror?.(error as Error)
            continue
          }
          if (message === null) break
          this.onmessage?.(message)
        }
      })
      child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')))
      child.stdin?.on('error', (error) => this.onerror?.(error))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (!stdin || this.closed || stdin.destroyed) return reject(new Error('the server process is not running'))
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** Ends the server: stdin closed, then SIGTERM to its group, then SIGKILL after a grace period. */
  async close(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.finish()
      return
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.stdin?.end()
    this.signal(child, 'SIGTERM')
    const killed = await Promise.race([exited.then(() => true), delay(1500).then(() => false)])
    if (!killed) {
      this.signal(child, 'SIGKILL')
      await Promise.race([exited, delay(1000)])
    }
    this.finish()
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal)
      else child.kill(signal)
    } catch {
      // Already gone.
    }
  }

  private onStderr(text: string): void {
    const lines = (this.stderrTail + text).split(/\r?\n/)
    this.stderrTail = lines.pop() ?? ''
    for (const line of lines) if (line.trim() !== '') this.options.onStderr(line)
    // A server that never writes a newline must not grow this without bound.
    if (this.stderrTail.length > 8192) this.flushStderr()
  }

  private flushStderr(): void {
    if (this.stderrTail.trim() !== '') this.options.onStderr(this.stderrTail)
    this.stderrTail = ''
  }

  private finish(): void {
    if (this.closed) return
    this.closed = true
    this.buffer.clear()
    this.onclose?.()
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
