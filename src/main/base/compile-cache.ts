import * as nodeModule from 'node:module'
import { join } from 'node:path'

/** What {@link enableCompileCache} did. */
export type CompileCacheState = { kind: 'enabled'; directory: string } | { kind: 'off'; why: string } | { kind: 'failed'; message: string }

/** The part of Node's `module.enableCompileCache` (Node ≥ 22.1) this uses; absent on Node 20. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string }
type CompileCacheStatus = { FAILED: number; ENABLED: number; ALREADY_ENABLED: number; DISABLED: number }

/**
 * Turns on Node's on-disk code cache for the modules loaded after this call (the CLI's chunks),
 * in `$SOUS_HOME/cache/compile`. Why Node's and not our own: it keys each entry by the Node
 * version, V8's flags, the file's path and a hash of its content, and checks the entry's own
 * checksum before use; a stale or damaged entry is recompiled and rewritten, never run (so no
 * check the code makes can be skipped or changed by the cache). Node 20 has no such API for ES
 * modules (only `vm.Script` for CommonJS, `vm.SourceTextModule` behind a flag): there this is
 * `off` and costs nothing (see docs/design/startup.md for what was measured).
 *
 * `SOUS_COMPILE_CACHE=0` (or Node's own `NODE_DISABLE_COMPILE_CACHE=1`) turns it off. A cache that
 * cannot be used (the folder cannot be made or written) is `failed`: the caller tells it once,
 * and the run goes on without it.
 */
export function enableCompileCache(home: string, env: NodeJS.ProcessEnv = process.env, api: { enable?: EnableCompileCache; status?: CompileCacheStatus } = nodeApi()): CompileCacheState {
  if (env['SOUS_COMPILE_CACHE'] === '0') return { kind: 'off', why: 'SOUS_COMPILE_CACHE=0' }
  if (!api.enable || !api.status) return { kind: 'off', why: `Node ${process.versions.node} has no module.enableCompileCache` }
  const directory = join(home, 'cache', 'compile')
  let result: ReturnType<EnableCompileCache>
  try {
    result = api.enable(directory)
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) }
  }
  if (result.status === api.status.ENABLED || result.status === api.status.ALREADY_ENABLED) return { kind: 'enabled', directory: result.directory ?? directory }
  if (result.status === api.status.DISABLED) return { kind: 'off', why: 'NODE_DISABLE_COMPILE_CACHE is set' }
  return { kind: 'failed', message: result.message ?? `cannot use ${directory}` }
}

/** The one line a failed cache gets on stderr (the run goes on without it). */
export function compileCacheNotice(state: CompileCacheState): string | undefined {
  return state.kind === 'failed' ? `sous: the compile cache is not used (${state.message}); starting without it.\n` : undefined
}

function nodeApi(): { enable?: EnableCompileCache; status?: CompileCacheStatus } {
  const api = nodeModule as unknown as { enableCompileCache?: EnableCompileCache; constants?: { compileCacheStatus?: CompileCacheStatus } }
  return { ...(api.enableCompileCache && { enable: api.enableCompileCache }), ...(api.constants?.compileCacheStatus && { status: api.constants.compileCacheStatus }) }
}
