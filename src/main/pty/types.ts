/**
 * Terminals on real PTYs, for the user and for the Bash tool. Implemented over node-pty in
 * `node-pty-service.ts` (the only importer of node-pty).
 */

export interface SpawnOptions {
  /** Program to run; defaults to the user's shell. */
  file?: string
  args?: string[]
  cwd: string
  env?: Record<string, string>
  cols?: number
  rows?: number
}

/** One running PTY. Output is batched (~5 ms) and flow-controlled. */
export interface PtyProcess {
  readonly id: string
  readonly pid: number
  /** Batched output. Returns the unsubscribe function. */
  onData(listener: (data: string) => void): () => void
  onExit(listener: (exit: { exitCode: number; signal?: number }) => void): () => void
  write(data: string): void
  resize(cols: number, rows: number): void
  /**
   * Acknowledges `chars` of output as rendered. Above a high-water mark of unacknowledged output
   * the PTY is paused; it resumes below the low-water mark. Consumers that do not render (the
   * Bash tool) spawn with flow control off.
   */
  ack(chars: number): void
  /** Kills the whole process group (SIGHUP → SIGKILL after a grace period). */
  kill(signal?: NodeJS.Signals): void
}

/** How one PTY delivers its output, besides what it runs. */
export interface DeliveryOptions {
  /** Flow control (see {@link PtyProcess.ack}); default on. */
  flowControl?: boolean
  /**
   * Once this text has arrived, output is delivered as it comes instead of after the batch
   * interval: a consumer waiting for an end marker (the Bash tool) hears it at once, not ~5 ms
   * later. Output before it is batched as usual.
   */
  flushOn?: string
}

export interface PtyService {
  spawn(options: SpawnOptions & DeliveryOptions): PtyProcess
  get(id: string): PtyProcess | undefined
  /** Every live PTY. */
  list(): PtyProcess[]
  /** Kills every PTY; nothing is left running. */
  dispose(): Promise<void>
}
