import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { findTranscriptFile } from '../store/session-index'
import { ContentStore } from './content-store'
import { gitText, runGit } from './git'
import { GitStore } from './git-store'
import { checkpointRef, checkpointsDir, indexPath, journalPath, pinnedConfigPath, type JournalEntry, type TreeState } from './types'

/**
 * The pruning policy of the checkpoint store, run at most once a day when the app or `sous`
 * starts (and by tests directly):
 *
 * - a session keeps its newest {@link PRUNE_POLICY.maxCheckpoints} checkpoints, none older than
 *   {@link PRUNE_POLICY.maxAgeDays} days (Claude Code's `cleanupPeriodDays` default);
 * - a deleted session (no transcript any more) loses its journal, its private index and its
 *   ref `refs/sous/checkpoints/<id>`;
 * - in a repository, the session's ref is replaced by one commit whose tree holds the kept
 *   trees, so what was dropped is no longer reachable (git's own gc removes it, when the user
 *   runs it; Sous never runs gc);
 * - the content store (outside git) keeps the manifests the kept checkpoints need (and their
 *   bases) and the blobs those list; anything else older than {@link PRUNE_POLICY.graceMs} goes
 *   (younger files may belong to a snapshot being written right now).
 *
 * A session whose journal changed in the last {@link PRUNE_POLICY.idleMs} is left alone: it may be
 * open in a Sous process, whose appends a rewrite would lose. Never throws; returns what it did.
 */
export const PRUNE_POLICY = { maxCheckpoints: 1000, maxAgeDays: 30, idleMs: 60 * 60 * 1000, graceMs: 60 * 60 * 1000 }

/** What a prune removed. */
export interface PruneReport {
  /** Checkpoints dropped from journals that remain. */
  checkpoints: number
  /** Sessions whose checkpoints went with them (deleted sessions). */
  sessions: number
  manifests: number
  blobs: number
  problems: string[]
}

/** Prunes `$SOUS_HOME/checkpoints` by the policy (overridable for tests). */
export async function pruneCheckpoints(home: string, env: NodeJS.ProcessEnv, options: Partial<typeof PRUNE_POLICY> & { now?: number } = {}): Promise<PruneReport> {
  const policy = { ...PRUNE_POLICY, ...options }
  const now = options.now ?? Date.now()
  const report: PruneReport = { checkpoints: 0, sessions: 0, manifests: 0, blobs: 0, problems: [] }
  const sessionsDir = join(checkpointsDir(home), 'sessions')
  const names = (await readdir(sessionsDir).catch(() => [])).filter((name) => name.endsWith('.jsonl'))
  const live: TreeState[] = []
  for (const name of names) {
    const sessionId = name.slice(0, -'.jsonl'.length)
    try {
      const path = journalPath(home, sessionId)
      const entries = parseJournal(await readFile(path, 'utf8'))
      if (now - (await stat(path)).mtimeMs < policy.idleMs) {
        live.push(...states(entries))
        continue
      }
      const deleted = !(await findTranscriptFile(home, sessionId).catch(() => 'unknown'))
      const kept = deleted ? [] : keep(entries, policy, now)
      const dropped = entries.filter((entry) => entry.type === 'checkpoint').length - kept.filter((entry) => entry.type === 'checkpoint').length
      live.push(...states(kept))
      if (dropped === 0 && !deleted) continue
      const projectPath = entries.find((entry) => entry.type === 'checkpoint')?.projectPath
      if (projectPath && entries.some((entry) => stateOf(entry)?.kind === 'git')) await rewriteRef(projectPath, env, sessionId, kept)
      if (deleted) {
        await rm(path, { force: true })
        await rm(indexPath(home, sessionId), { force: true })
        await rm(pinnedConfigPath(home, sessionId), { force: true })
        report.sessions++
      } else {
        const temporary = `${path}.${process.pid}.prune`
        await writeFile(temporary, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: 0o600 })
        await rename(temporary, path)
        report.checkpoints += dropped
      }
    } catch (error) {
      report.problems.push(`${sessionId}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  // A journal that could not be read keeps the whole content store: its manifests are unknown.
  if (report.problems.length === 0) await sweepContent(home, live, policy.graceMs, now, report).catch((error: unknown) => report.problems.push(`the content store: ${String(error)}`))
  return report
}

/** The entries to keep: the newest checkpoints within the age, with their after-states. */
function keep(entries: readonly JournalEntry[], policy: typeof PRUNE_POLICY, now: number): JournalEntry[] {
  const oldest = now - policy.maxAgeDays * 24 * 60 * 60 * 1000
  const checkpoints = entries.filter((entry): entry is Extract<JournalEntry, { type: 'checkpoint' }> => entry.type === 'checkpoint' && Date.parse(entry.at) >= oldest)
  const ids = new Set(checkpoints.slice(-policy.maxCheckpoints).map((entry) => entry.id))
  return entries.filter((entry) => ids.has(entry.id))
}

/** In the repository: the ref becomes one commit whose tree holds every kept tree (or goes, when none is kept). */
async function rewriteRef(projectPath: string, env: NodeJS.ProcessEnv, sessionId: string, kept: readonly JournalEntry[]): Promise<void> {
  const store = await GitStore.open(projectPath, env)
  if ('reason' in store) return
  const call = { cwd: store.root, env }
  const ref = checkpointRef(sessionId)
  const old = (await runGit(['rev-parse', '-q', '--verify', ref], call))
  const oldId = old.ok ? old.stdout.toString().trim() : ''
  const trees = [...new Set(kept.flatMap((entry) => (stateOf(entry)?.kind === 'git' ? [(stateOf(entry) as Extract<TreeState, { kind: 'git' }>).tree] : [])))]
  if (trees.length === 0) {
    if (oldId) await gitText(['update-ref', '--no-deref', '-d', ref, oldId], call)
    return
  }
  const listing = trees.map((tree, index) => `040000 tree ${tree}\t${String(index).padStart(6, '0')}\n`).join('')
  const tree = await gitText(['mktree', '--missing'], { ...call, input: listing })
  const commit = await gitText(['commit-tree', '--no-gpg-sign', tree, '-m', 'sous checkpoints (pruned)'], call)
  await gitText(['update-ref', '--no-deref', ref, commit, oldId], call)
}

/** Deletes manifests and blobs no kept content state needs (and older than the grace period). */
async function sweepContent(home: string, live: readonly TreeState[], graceMs: number, now: number, report: PruneReport): Promise<void> {
  const root = checkpointsDir(home)
  const manifestsDir = join(root, 'manifests')
  const manifestFiles = await readdir(manifestsDir).catch(() => [])
  if (manifestFiles.length === 0) return
  const store = new ContentStore(home)
  const manifests = new Set<string>()
  const blobs = new Set<string>()
  for (const state of live) {
    if (state.kind !== 'content' || manifests.has(state.manifest)) continue
    const { entries } = await store.entries(state.manifest)
    for (let id: string | undefined = state.manifest; id && !manifests.has(id); ) {
      manifests.add(id)
      id = (JSON.parse(await readFile(join(manifestsDir, `${id}.json`), 'utf8')) as { base?: string }).base
    }
    for (const entry of entries.values()) blobs.add(entry.id)
  }
  const old = async (path: string) => now - (await stat(path)).mtimeMs >= graceMs
  for (const file of manifestFiles) {
    const path = join(manifestsDir, file)
    if (!manifests.has(file.replace(/\.json$/, '')) && (await old(path))) {
      await rm(path, { force: true })
      report.manifests++
    }
  }
  const blobsDir = join(root, 'blobs')
  for (const folder of await readdir(blobsDir).catch(() => [])) {
    for (const file of await readdir(join(blobsDir, folder)).catch(() => [])) {
      const path = join(blobsDir, folder, file)
      if (!blobs.has(folder + file) && (await old(path))) {
        await rm(path, { force: true })
        report.blobs++
      }
    }
  }
}

/** The states a journal's entries name. */
function states(entries: readonly JournalEntry[]): TreeState[] {
  return entries.flatMap((entry) => {
    const state = stateOf(entry)
    return state ? [state] : []
  })
}

function stateOf(entry: JournalEntry): TreeState | undefined {
  return entry.type === 'checkpoint' ? entry.before : entry.after
}

function parseJournal(text: string): JournalEntry[] {
  const out: JournalEntry[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      out.push(JSON.parse(line) as JournalEntry)
    } catch {
      // A torn line is no entry.
    }
  }
  return out
}

/** Runs {@link pruneCheckpoints} at most once a day (a stamp file under the store). Never throws. */
export async function pruneDaily(home: string, env: NodeJS.ProcessEnv): Promise<PruneReport | undefined> {
  const stamp = join(checkpointsDir(home), 'pruned-at')
  const last = await stat(stamp).then((info) => info.mtimeMs, () => 0)
  if (Date.now() - last < 24 * 60 * 60 * 1000) return undefined
  await writeFile(stamp, new Date().toISOString(), { mode: 0o600 }).catch(() => undefined)
  return pruneCheckpoints(home, env).catch(() => undefined)
}
