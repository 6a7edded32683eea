import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * Where bubblewrap and socat are, found once when the sandbox starts and handed to the library
 * (`bwrapPath`, `socatPath`): without them it runs `which bwrap` (a blocking child process) for
 * every command it wraps, a few ms of each sandboxed Bash call (bench/gate.bench.ts). Found the
 * way `which` finds them: the first executable file of that name on PATH. Absent tools are left
 * out, so the library's own check still reports them.
 */
export function sandboxToolPaths(path: string | undefined = process.env['PATH']): { bwrapPath?: string; socatPath?: string } {
  const bwrap = findOnPath('bwrap', path)
  const socat = findOnPath('socat', path)
  return { ...(bwrap && { bwrapPath: bwrap }), ...(socat && { socatPath: socat }) }
}

/** The first executable regular file named `name` in PATH's folders (absolute ones only), as `which` does. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const folder of (path ?? '').split(delimiter)) {
    if (!folder.startsWith('/')) continue
    const candidate = join(folder, name)
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here (or not executable): the next folder.
    }
  }
  return undefined
}
