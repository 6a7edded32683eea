import ProperLockfile from 'proper-lockfile'

/**
 * proper-lockfile, bundled (electron.vite.config.ts) with graceful-fs, retry and signal-exit.
 * Not required from node_modules: that was eight CommonJS files resolved, read and compiled one
 * after the other on `sous -p`'s way to its first request (the transcript's lock), and an ES
 * import of it from node_modules would make Node 20 run its CommonJS export lexer
 * (`cjsPreparseModuleExports`) as well (docs/design/startup.md).
 */
export function properLockfile(): typeof ProperLockfile {
  return ProperLockfile
}
