import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PtyProcess, PtyService } from '../../pty/types'

/**
 * One shell command on a fresh PTY. The command runs in bash through `eval`; an EXIT trap writes
 * the final working directory to a temp file and prints an end marker (an OSC sequence with a
 * per-run nonce) to the terminal, then waits. Seeing the marker in the stream proves that every
 * byte before it has arrived (a PTY can lose its last few KB when it closes), and then the
 * whole process group is killed, leftovers included.
 */

/** Environment that keeps tools from paging, prompting or colouring. */
export const NON_INTERACTIVE_ENV: Record<string, string> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  CLICOLOR: '0',
  npm_config_color: 'false',
  // Governance follows `cd DIR` as relative to the cwd; a CDPATH inherited from the user would
  // send it elsewhere (bash looks DIR up in CDPATH first). Empty means the cwd only.
  CDPATH: '',
}

/**
 * The script every command runs in. Exported so a sandbox can wrap it whole: the command, the cwd
 * file and the end marker then all live inside the sandbox (which makes the temp dir writable).
 */
export const WRAPPER = [
  '__sous_cmd=$SOUS_CMD; __sous_cwd_file=$SOUS_CWD_FILE; __sous_mark=$SOUS_MARK',
  'unset SOUS_CMD SOUS_CWD_FILE SOUS_MARK',
  '__sous_done() {',
  '  __sous_ec=$?',
  '  trap - EXIT',
  '  pwd -P > "$__sous_cwd_file" 2>/dev/null',
  // The braces make 2>/dev/null cover the failed open of /dev/tty too (there is none in the sandbox).
  `  { printf '\\033]6973;%s;%s\\007' "$__sous_mark" "$__sous_ec" > /dev/tty; } 2>/dev/null || printf '\\033]6973;%s;%s\\007' "$__sous_mark" "$__sous_ec"`,
  // Inside a sandbox there is no controlling terminal (bwrap --new-session): wait on stdin, still the PTY.
  '  { read -r -t 60 __sous_reply < /dev/tty; } 2>/dev/null || { [ -t 0 ] && read -r -t 60 __sous_reply; }',
  '  exit "$__sous_ec"',
  '}',
  'trap __sous_done EXIT',
  'eval "$__sous_cmd"',
].join('\n')

export interface CommandOptions {
  command: string
  cwd: string
  env?: Record<string, string>
  /** Replaces {@link WRAPPER} as the `bash -c` script (a sandbox-wrapped copy of it). */
  script?: string
  /** Kill after this long (ms); 0 for no limit. */
  timeoutMs: number
  signal?: AbortSignal
  cols?: number
  rows?: number
}

/** How a command ended. */
export interface CommandEnd {
  /** null when it was killed before reporting. */
  exitCode: number | null
  /** The working directory it ended in, when it reported one that exists. */
  cwd?: string
  timedOut: boolean
  aborted: boolean
  /** Stopped by TaskStop or the session ending. */
  killed: boolean
}

/** A running command: output as it comes, and its end. */
export class CommandRun {
  readonly proc: PtyProcess
  readonly done: Promise<CommandEnd>
  private readonly listeners = new Set<(raw: string) => void>()
  private carry = ''
  private finished = false
  private stopReason: 'timeout' | 'abort' | 'kill' | undefined
  private readonly tempDir: string
  private readonly markerPrefix: string

  constructor(pty: PtyService, options: CommandOptions) {
    this.tempDir = mkdtempSync(join(tmpdir(), 'sous-bash-'))
    const cwdFile = join(this.tempDir, 'cwd')
    const mark = randomBytes(8).toString('hex')
    this.markerPrefix = `\x1b]6973;${mark};`
    this.proc = pty.spawn({
      file: '/bin/bash',
      args: ['--noprofile', '--norc', '-c', options.script ?? WRAPPER],
      cwd: options.cwd,
      env: { ...NON_INTERACTIVE_ENV, ...options.env, SOUS_CMD: options.command, SOUS_CWD_FILE: cwdFile, SOUS_MARK: mark },
      cols: options.cols ?? 120,
      rows: options.rows ?? 40,
      flowControl: false,
      // The marker is what the run waits for: delivered as it arrives, not a batch interval later.
      flushOn: this.markerPrefix,
    })
    this.done = new Promise<CommandEnd>((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const onAbort = () => this.stop('abort')
      const finish = (exitCode: number | null) => {
        if (this.finished) return
        this.finished = true
        if (timer) clearTimeout(timer)
        options.signal?.removeEventListener('abort', onAbort)
        const cwd = exitCode === null ? undefined : readCwd(cwdFile)
        rmSync(this.tempDir, { recursive: true, force: true })
        this.proc.kill('SIGHUP')
        resolve({ exitCode, cwd, timedOut: this.stopReason === 'timeout', aborted: this.stopReason === 'abort', killed: this.stopReason === 'kill' })
      }
      this.proc.onData((data) => this.receive(data, finish))
      // Without a marker (the command exec'd away, or was killed), the exit is the end.
      this.proc.onExit((exit) => {
        this.emit(this.carry)
        this.carry = ''
        finish(this.stopReason ? null : exit.exitCode)
      })
      if (options.timeoutMs > 0) timer = setTimeout(() => this.stop('timeout'), options.timeoutMs)
      if (options.signal?.aborted) this.stop('abort')
      else options.signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Raw terminal output (before the end marker). Returns the unsubscribe function. */
  onOutput(listener: (raw: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get isRunning(): boolean {
    return !this.finished
  }

  /** Kills the process group (SIGHUP, then SIGKILL after a grace period). */
  stop(reason: 'timeout' | 'abort' | 'kill' = 'kill'): void {
    if (this.finished) return
    this.stopReason ??= reason
    this.proc.kill('SIGHUP')
  }

  private receive(data: string, finish: (exitCode: number | null) => void): void {
    if (this.finished) return
    const text = this.carry + data
    const at = text.indexOf(this.markerPrefix)
    if (at !== -1) {
      const rest = text.slice(at + this.markerPrefix.length)
      // eslint-disable-next-line no-control-regex -- the marker ends with BEL
      const end = /^(\d+)\x07/.exec(rest)
      if (end) {
        this.emit(text.slice(0, at))
        this.carry = ''
        finish(Number(end[1]))
        return
      }
      // The marker is split across chunks: hold from its start.
      this.emit(text.slice(0, at))
      this.carry = text.slice(at)
      return
    }
    // Hold back a possible partial marker at the end.
    const hold = Math.min(text.length, this.markerPrefix.length + 4)
    const tailStart = text.lastIndexOf('\x1b', text.length - 1)
    const keepFrom = tailStart !== -1 && tailStart >= text.length - hold ? tailStart : text.length
    this.emit(text.slice(0, keepFrom))
    this.carry = text.slice(keepFrom)
  }

  private emit(raw: string): void {
    if (!raw) return
    for (const listener of this.listeners) listener(raw)
  }
}

function readCwd(file: string): string | undefined {
  try {
    const dir = readFileSync(file, 'utf8').replace(/\n$/, '')
    return dir && statSync(dir).isDirectory() ? dir : undefined
  } catch {
    return undefined
  }
}
