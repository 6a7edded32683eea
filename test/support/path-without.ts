import { accessSync, constants, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/** The system tools a fresh machine may lack, and Sous must cope without. */
export const OPTIONAL_SYSTEM_TOOLS = ['rg', 'bwrap', 'socat'] as const

/**
 * A `PATH` with every program of `path` except `missing`: one folder of symlinks, so a test can
 * run as on a machine where those were never installed (no root, no uninstalling). The first
 * program of a name wins, as in a shell. Call `dispose` to remove the folder.
 */
export function pathWithout(missing: readonly string[], path = process.env.PATH ?? ''): { path: string; dispose(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'sous-path-'))
  const seen = new Set<string>(missing)
  for (const dir of path.split(delimiter).filter(Boolean)) {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      continue
    }
    for (const name of names) {
      if (seen.has(name)) continue
      const target = join(dir, name)
      try {
        accessSync(target, constants.X_OK)
      } catch {
        continue
      }
      seen.add(name)
      symlinkSync(target, join(folder, name))
    }
  }
  return { path: folder, dispose: () => rmSync(folder, { recursive: true, force: true }) }
}
