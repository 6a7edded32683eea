import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { SandboxManager } from '@anthropic-ai/sandbox-runtime'

/**
 * The sandbox library's host-side network bridges on Linux are two `socat` processes it spawns
 * as this process's children (listening on `claude-http-*.sock` / `claude-socks-*.sock` in the temp
 * folder), stopped only by its `reset()`. A process that dies without it — a remote host killed
 * mid-command (SIGKILL, or SIGHUP/SIGTERM, which Node does not turn into a clean exit), an OOM kill —
 * left them running for good, one pair per death. The watch is a small shell in a session of its
 * own (so a signal to our process group does not take it along) that waits for this process to
 * end, then stops those bridges: each only if its command line still names its socket, so a pid
 * used again meanwhile is never touched. {@link BridgeWatch.stop} ends the watch on a clean reset.
 */
export interface BridgeWatch {
  /** The bridges found (pid and socket), for tests and logs. */
  readonly bridges: ReadonlyArray<{ pid: number; socket: string }>
  stop(): void
}

/** The watch's script: `$1` the pid to outlive, then pid/socket pairs. */
const SCRIPT = [
  'parent=$1; shift',
  // GNU tail waits for a pid without a process a second; elsewhere, a slow loop.
  'tail --pid="$parent" -f /dev/null 2>/dev/null || while kill -0 "$parent" 2>/dev/null; do sleep 1; done',
  'while [ $# -ge 2 ]; do',
  '  case "$(tr "\\000" " " < /proc/$1/cmdline 2>/dev/null)" in *"$2"*) kill "$1" 2>/dev/null;; esac',
  '  shift 2',
  'done',
].join('\n')

/**
 * Finds this process's bridges and starts the watch over them; `undefined` where there are none
 * (not Linux, no network bridge) or no watch could start. Contract: never throws.
 */
export function watchBridges(pid = process.pid): BridgeWatch | undefined {
  if (process.platform !== 'linux') return undefined
  const bridges = findBridges(pid)
  if (bridges.length === 0) return undefined
  try {
    const watch = spawn('/bin/sh', ['-c', SCRIPT, 'sous-bridge-watch', String(pid), ...bridges.flatMap((bridge) => [String(bridge.pid), bridge.socket])], { detached: true, stdio: 'ignore' })
    watch.on('error', () => undefined)
    watch.unref()
    return {
      bridges,
      stop() {
        // Its own process group: the shell and the tail it waits in.
        if (watch.pid !== undefined && watch.exitCode === null) {
          try {
            process.kill(-watch.pid, 'SIGKILL')
          } catch {
            // Gone already.
          }
        }
      },
    }
  } catch {
    return undefined
  }
}

/** The `socat` children of `pid` that listen on one of the library's bridge sockets. */
export function findBridges(pid: number): Array<{ pid: number; socket: string }> {
  const prefix = `UNIX-LISTEN:${join(tmpdir(), 'claude-')}`
  const found: Array<{ pid: number; socket: string }> = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the command name, which is in parentheses and may hold anything.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== pid) continue
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (basename(argv[0] ?? '') !== 'socat') continue
      const listen = argv.find((arg) => arg.startsWith(prefix))
      if (listen) found.push({ pid: Number(entry), socket: listen.slice('UNIX-LISTEN:'.length).split(',')[0]! })
    } catch {
      // Ended while we looked.
    }
  }
  return found
}

let current: BridgeWatch | undefined

/** `SandboxManager.initialize`, then the watch over the bridges it started (see {@link watchBridges}). */
export async function initializeLibrary(...args: Parameters<typeof SandboxManager.initialize>): Promise<void> {
  await SandboxManager.initialize(...args)
  current?.stop()
  current = watchBridges()
}

/** `SandboxManager.reset` (it stops the bridges itself), and the watch with it. */
export async function resetLibrary(): Promise<void> {
  current?.stop()
  current = undefined
  await SandboxManager.reset()
}
