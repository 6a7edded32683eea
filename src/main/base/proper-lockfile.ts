import { createRequire } from 'node:module'
import type ProperLockfile from 'proper-lockfile'

let loaded: typeof ProperLockfile | undefined

/**
 * proper-lockfile, required (not imported) on the first lock. It is CommonJS: imported from an ES
 * module, Node 20 first runs its CommonJS export lexer (`cjsPreparseModuleExports`, whose
 * WebAssembly it compiles on first use) — the one CommonJS import left on `sous -p`'s way to its
 * first request (docs/design/startup.md). `require` reads the same module without the lexer.
 */
export function properLockfile(): typeof ProperLockfile {
  loaded ??= createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile
  return loaded
}
