import { headOf, readWorktree } from './changes'
import type { MergeSource } from './plan-types'

/**
 * Reads one session's worktree as the merge sees it: its fork point against the base and every
 * file it changed. `baseHead`, the base's HEAD, is read when not given (callers reading several
 * sessions read it once).
 */
export async function readSource(baseRoot: string, session: { sessionId: string; label: string; worktree: string }, env?: NodeJS.ProcessEnv, baseHead?: string): Promise<MergeSource> {
  const { fork, files } = await readWorktree(session.worktree, baseHead ?? (await headOf(baseRoot, env)), env)
  return { ...session, fork, files: new Map(files.map((file) => [file.path, file])) }
}

/** {@link readSource} for several sessions at once, keyed by session id. */
export async function readSources(baseRoot: string, sessions: ReadonlyArray<{ sessionId: string; label: string; worktree: string }>, env?: NodeJS.ProcessEnv): Promise<Map<string, MergeSource>> {
  const baseHead = sessions.length > 0 ? await headOf(baseRoot, env) : undefined
  const read = await Promise.all(sessions.map((session) => readSource(baseRoot, session, env, baseHead)))
  return new Map(read.map((source) => [source.sessionId, source]))
}
