import { accessSync, constants } from 'node:fs'

/**
 * The ripgrep Sous runs (Grep, `@` search, the sandbox library's scan for protected paths): the
 * binary `@vscode/ripgrep` ships for this platform, so a fresh machine needs no system `rg`.
 * When that package is missing (an unsupported platform, an install without optional
 * dependencies) the answer is `rg`, found on `PATH` — if it is there.
 */
export function ripgrepCommand(): Promise<string> {
  located ??= findRipgrep()
  return located
}

let located: Promise<string> | undefined

/** Where ripgrep is, given how to load `@vscode/ripgrep` (a parameter so tests can take it away). */
export async function findRipgrep(load: () => Promise<{ rgPath: string }> = () => import('@vscode/ripgrep')): Promise<string> {
  try {
    // Imported lazily: the package throws at import time when its platform binary is absent.
    const { rgPath } = await load()
    const path = unpackedFromAsar(rgPath)
    accessSync(path, constants.X_OK)
    return path
  } catch {
    return 'rg'
  }
}

/**
 * A packaged app keeps its modules in `app.asar`, which the OS cannot execute from; binaries are
 * unpacked beside it (`app.asar.unpacked`, electron-builder's `asarUnpack`). Paths elsewhere are
 * returned unchanged.
 */
export function unpackedFromAsar(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked')
}
