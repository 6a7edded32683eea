import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'

/**
 * The folder a command line asks to open (`sous-desktop ~/code/app`), or `undefined`.
 * `argv` is the list after the executable (and after the app path when run as `electron .`).
 * Chromium switches and flags are skipped; the last remaining argument that is an existing
 * directory wins.
 */
export function folderFromArgv(argv: readonly string[], cwd: string): string | undefined {
  for (let i = argv.length - 1; i >= 0; i--) {
    const arg = argv[i]
    if (!arg || arg.startsWith('-')) continue
    const path = isAbsolute(arg) ? arg : resolve(cwd, arg)
    try {
      if (statSync(path).isDirectory()) return path
    } catch {
      // Not a folder: keep looking.
    }
  }
  return undefined
}

/**
 * Folders the OS asked us to open (argv, second instance, macOS `open-file`, the menu) arrive
 * before the renderer can hear them; this holds them until it is ready, then delivers each
 * once, in order.
 */
export class OpenRequestQueue {
  private pending: string[] = []
  private ready = false

  constructor(private readonly deliver: (path: string) => void) {}

  /** Queues or delivers a request. */
  request(path: string): void {
    if (this.ready) this.deliver(path)
    else this.pending.push(path)
  }

  /** The renderer loaded (true) or is reloading (false). */
  setReady(ready: boolean): void {
    this.ready = ready
    if (!ready) return
    for (const path of this.pending.splice(0)) this.deliver(path)
  }
}
