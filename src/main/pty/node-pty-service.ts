import { createRequire } from 'node:module'
import type * as NodePty from 'node-pty'
import type { IPty } from 'node-pty'
import { childEnvironment, type ChildEnvPolicy } from '../base/child-env'
import { killSessionTree } from './process-tree'
import type { DeliveryOptions, PtyProcess, PtyService, SpawnOptions } from './types'

/** Output is gathered for this long and delivered as one data event (as VS Code does). */
export const BATCH_MS = 5
/** Above this many unacknowledged characters the PTY is paused... */
export const HIGH_WATER_CHARS = 100_000
/** ...and it resumes once acknowledgements bring the backlog below this. */
export const LOW_WATER_CHARS = 5_000
/** How long a process group gets to exit after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 1_500

type ExitInfo = { exitCode: number; signal?: number }

/** Tunables, mostly so tests and benchmarks can shorten the grace period. */
export interface NodePtyServiceOptions {
  killGraceMs?: number
  /** How long output is gathered into one data event (default {@link BATCH_MS}). */
  batchMs?: number
  highWaterChars?: number
  lowWaterChars?: number
  /**
   * Which variables stay out of every PTY (the user's marked secrets and pass-throughs), read at
   * each spawn. Sous's own credentials stay out whatever it says (see base/child-env).
   */
  childEnv?: () => ChildEnvPolicy
  /** What every PTY's environment starts from (default this process's). */
  env?: NodeJS.ProcessEnv
}

/** The user's shell, or bash. */
export function defaultShell(env: NodeJS.ProcessEnv = process.env): string {
  return env.SHELL || '/bin/bash'
}

/** One PTY: batching, flow control, group kill. */
class NodePtyProcess implements PtyProcess {
  readonly pid: number
  private readonly dataListeners = new Set<(data: string) => void>()
  private readonly exitListeners = new Set<(exit: ExitInfo) => void>()
  private pending: string[] = []
  private flushTimer: NodeJS.Timeout | undefined
  private unacked = 0
  private paused = false
  private killTimer: NodeJS.Timeout | undefined
  private exitInfo: ExitInfo | undefined
  /** The end of the output so far that could be the start of `flushOn`, and whether `flushOn` has arrived. */
  private flushTail = ''
  private flushing = false
  /** Resolves once the PTY has exited and its last output was delivered. */
  readonly exited: Promise<ExitInfo>

  constructor(
    readonly id: string,
    private readonly pty: IPty,
    private readonly flowControl: boolean,
    private readonly options: Required<NodePtyServiceOptions>,
    onGone: () => void,
    private readonly flushOn?: string,
  ) {
    this.pid = pty.pid
    pty.onData((chunk) => this.receive(chunk))
    this.exited = new Promise((resolve) => {
      pty.onExit((exit) => {
        // Deliver what is still batched before anyone hears about the exit.
        this.flush()
        if (this.killTimer) clearTimeout(this.killTimer)
        this.exitInfo = exit.signal ? { exitCode: exit.exitCode, signal: exit.signal } : { exitCode: exit.exitCode }
        // The shell is gone, but a background grandchild may still hold the terminal.
        killSessionTree(this.pid, 'SIGKILL')
        onGone()
        for (const listener of this.exitListeners) listener(this.exitInfo)
        this.exitListeners.clear()
        this.dataListeners.clear()
        resolve(this.exitInfo)
      })
    })
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined
  }

  onData(listener: (data: string) => void): () => void {
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  onExit(listener: (exit: ExitInfo) => void): () => void {
    if (this.exitInfo) {
      const info = this.exitInfo
      queueMicrotask(() => listener(info))
      return () => {}
    }
    this.exitListeners.add(listener)
    return () => this.exitListeners.delete(listener)
  }

  write(data: string): void {
    if (!this.exitInfo) this.pty.write(data)
  }

  resize(cols: number, rows: number): void {
    if (this.exitInfo || cols < 1 || rows < 1) return
    this.pty.resize(Math.floor(cols), Math.floor(rows))
  }

  ack(chars: number): void {
    if (!this.flowControl) return
    this.unacked = Math.max(0, this.unacked - chars)
    if (this.paused && this.unacked < this.options.lowWaterChars) {
      this.paused = false
      this.pty.resume()
    }
  }

  kill(signal: NodeJS.Signals = 'SIGHUP'): void {
    if (this.exitInfo) return
    // A paused PTY would keep a dying program blocked on write; let it drain.
    if (this.paused) {
      this.paused = false
      this.pty.resume()
    }
    killSessionTree(this.pid, signal)
    if (signal !== 'SIGKILL' && !this.killTimer) {
      this.killTimer = setTimeout(() => killSessionTree(this.pid, 'SIGKILL'), this.options.killGraceMs)
      this.killTimer.unref()
    }
  }

  private receive(chunk: string): void {
    this.pending.push(chunk)
    if (this.flowControl) {
      this.unacked += chunk.length
      if (!this.paused && this.unacked > this.options.highWaterChars) {
        this.paused = true
        this.pty.pause()
      }
    }
    if (this.flushNow(chunk)) this.flush()
    else this.flushTimer ??= setTimeout(() => this.flush(), this.options.batchMs)
  }

  /** Whether `flushOn` has arrived, in this chunk or before (it may be split across chunks). */
  private flushNow(chunk: string): boolean {
    if (this.flushing || !this.flushOn) return this.flushing
    const seen = this.flushTail + chunk
    this.flushing = seen.includes(this.flushOn)
    this.flushTail = this.flushOn.length > 1 ? seen.slice(1 - this.flushOn.length) : ''
    return this.flushing
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    if (this.pending.length === 0) return
    const data = this.pending.length === 1 ? this.pending[0]! : this.pending.join('')
    this.pending = []
    for (const listener of this.dataListeners) listener(data)
  }
}

/**
 * {@link PtyService} over node-pty.
 *
 * **Contract:** every PTY is a session leader (node-pty calls setsid), so killing it signals its
 * whole process group and every other group of its session; `dispose()` resolves only after every
 * PTY has exited.
 *
 * **Known limit:** when the last holder of the terminal exits, libuv may report end-of-file while
 * the kernel still buffers a few KB of output (a POLLHUP + partial-read heuristic), so the tail of
 * a program's output can be lost at exit. Consumers that need every byte (the Bash tool) make the
 * program print an end marker and wait for it before letting the terminal close.
 */
export class NodePtyService implements PtyService {
  private readonly processes = new Map<string, NodePtyProcess>()
  private nextId = 1
  private readonly options: Required<NodePtyServiceOptions>

  constructor(options: NodePtyServiceOptions = {}) {
    this.options = {
      killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
      batchMs: options.batchMs ?? BATCH_MS,
      highWaterChars: options.highWaterChars ?? HIGH_WATER_CHARS,
      lowWaterChars: options.lowWaterChars ?? LOW_WATER_CHARS,
      childEnv: options.childEnv ?? (() => ({})),
      env: options.env ?? process.env,
    }
  }

  /**
   * Contract: the child's environment is the service's base (this process's) plus `options.env`, minus every variable
   * the child-environment policy holds back — an explicit `env` cannot bring a credential back.
   */
  spawn(options: SpawnOptions & DeliveryOptions): PtyProcess {
    const env: Record<string, string> = { ...childEnvironment({ ...this.options.env, ...options.env }, this.options.childEnv()), TERM: 'xterm-256color' }
    const file = options.file ?? defaultShell(env)
    const pty = nodePty().spawn(file, options.args ?? [], {
      name: 'xterm-256color',
      cwd: options.cwd,
      env,
      cols: options.cols ?? 80,
      rows: options.rows ?? 24,
    })
    const id = `pty_${this.nextId++}`
    const proc = new NodePtyProcess(id, pty, options.flowControl ?? true, this.options, () => this.processes.delete(id), options.flushOn)
    this.processes.set(id, proc)
    return proc
  }

  get(id: string): PtyProcess | undefined {
    return this.processes.get(id)
  }

  list(): PtyProcess[] {
    return [...this.processes.values()]
  }

  async dispose(): Promise<void> {
    const all = [...this.processes.values()]
    for (const proc of all) proc.kill('SIGHUP')
    await Promise.all(all.map((proc) => proc.exited))
  }
}

let loaded: typeof NodePty | undefined
/**
 * node-pty, loaded at the first spawn: it opens its native addon as it loads, which a cold
 * `sous -p` that runs no command would pay for (docs/design/startup.md). `require` keeps `spawn`
 * synchronous; node-pty is CommonJS and stays outside the bundle.
 */
function nodePty(): typeof NodePty {
  loaded ??= createRequire(import.meta.url)('node-pty') as typeof NodePty
  return loaded
}
