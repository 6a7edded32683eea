import type { Checkpoint, TreeEntries, TreeEntry, TreeState } from './types'
import { changedPaths, stateKey, type Workspace } from './workspace'

/** What restoring a checkpoint's code would do, decided before anything is written. */
export interface RestorePlan {
  checkpoint: Checkpoint
  /** Which store the target's blobs are in. */
  store: 'git' | 'content'
  /** The folder the paths are relative to. */
  root: string
  /** Paths to set to the checkpoint's entry (`undefined`: the file did not exist then, delete it). */
  changes: Array<{ path: string; entry: TreeEntry | undefined }>
  /** Changed since the checkpoint by someone other than the agent: kept unless forced. */
  conflicts: string[]
  /** Paths restore never touches, with why (a submodule, a file over the size cap, inside `.git`). */
  skipped: Array<{ path: string; why: string }>
  /** The checkpoint's files and the current ones (for a preview's diff). */
  target: TreeEntries
  current: TreeEntries
}

/** Why no plan could be made; nothing was written. */
export interface RestoreRefusal {
  error: string
}

/**
 * Plans restoring `checkpoints[index]`: what differs from the workspace now, and which of those
 * files someone other than the agent changed since then. "What the agent left" is each call's
 * after-state: a difference between one call's after-state and the next checkpoint (or the tree
 * now) is someone else's change. Refuses, writing nothing, when the checkpoint has no snapshot,
 * when HEAD moved since the latest checkpoint, or when the store cannot read a state.
 */
export async function planRestore(workspace: Workspace, checkpoints: readonly Checkpoint[], index: number): Promise<RestorePlan | RestoreRefusal> {
  const checkpoint = checkpoints[index]
  if (!checkpoint) return { error: 'no such checkpoint' }
  const target = checkpoint.before
  if (target.kind === 'missing') return { error: `checkpoint ${checkpoint.id} cannot be restored: no snapshot was recorded (${target.reason})` }
  const moved = await headMoved(workspace, checkpoints, target)
  if (moved) return { error: moved }
  const now = await workspace.snapshot()
  if (now.kind === 'missing') return { error: `the workspace could not be read now (${now.reason}); nothing was written` }
  if (now.kind !== target.kind) return { error: `checkpoint ${checkpoint.id} was taken ${target.kind === 'git' ? 'in a git repository' : 'outside git'}, and the folder is ${now.kind === 'git' ? 'a git repository' : 'not one'} now; nothing was written` }
  try {
    const read = cachedReader(workspace)
    const [targetFiles, currentFiles] = await Promise.all([read(target), read(now)])
    const external = new Set<string>()
    // From the checkpoint on: the tree each step left, then the tree the next step found.
    const states: TreeState[] = []
    for (const later of checkpoints.slice(index)) states.push(later.before, later.after ?? later.before)
    states.push(now)
    for (let step = 1; step < states.length; step += 2) {
      const left = lastKnown(states, step)
      const found = nextKnown(states, step + 1)
      if (!left || !found) continue
      for (const path of await workspace.diff(left, found)) external.add(path)
    }
    const skipped: RestorePlan['skipped'] = []
    const changes: RestorePlan['changes'] = []
    for (const path of changedPaths(currentFiles.entries, targetFiles.entries)) {
      const entry = targetFiles.entries.get(path)
      const current = currentFiles.entries.get(path)
      if (path.split('/').includes('.git')) skipped.push({ path, why: 'inside a .git folder' })
      else if (entry?.mode === '160000' || current?.mode === '160000') skipped.push({ path, why: 'a submodule (restore it in the submodule itself)' })
      else if (targetFiles.skipped.has(path) || currentFiles.skipped.has(path)) skipped.push({ path, why: 'larger than the per-file cap of the checkpoint store' })
      else changes.push({ path, entry })
    }
    const conflicts = changes.map((change) => change.path).filter((path) => external.has(path))
    return { checkpoint, store: target.kind, root: target.root, changes, conflicts, skipped, target: targetFiles.entries, current: currentFiles.entries }
  } catch (error) {
    return { error: `checkpoint ${checkpoint.id} cannot be restored: ${error instanceof Error ? error.message : String(error)}; nothing was written` }
  }
}

/** A clear refusal when HEAD is not where the latest recorded state found it. */
async function headMoved(workspace: Workspace, checkpoints: readonly Checkpoint[], target: TreeState): Promise<string | undefined> {
  if (target.kind !== 'git') return undefined
  const latest = [...checkpoints].reverse().flatMap((checkpoint) => [checkpoint.after, checkpoint.before]).find((state) => state?.kind === 'git')
  if (!latest || latest.kind !== 'git') return undefined
  const head = await workspace.head()
  if (head === undefined || head === latest.head) return undefined
  const name = (commit: string | null | undefined) => (commit ? commit.slice(0, 12) : 'no commit')
  return `HEAD moved since the latest checkpoint (it was ${name(latest.head)}, it is ${name(head)} now): restoring files over other commits could lose work, so nothing was written. Check out ${name(latest.head)} again to rewind.`
}

function lastKnown(states: readonly TreeState[], from: number): TreeState | undefined {
  for (let at = from; at >= 0; at--) if (states[at]!.kind !== 'missing') return states[at]
  return undefined
}

function nextKnown(states: readonly TreeState[], from: number): TreeState | undefined {
  for (let at = from; at < states.length; at++) if (states[at]!.kind !== 'missing') return states[at]
  return undefined
}

/** Reads each state's files once (states repeat: a prompt's before is also its after). */
function cachedReader(workspace: Workspace): (state: TreeState) => Promise<{ entries: TreeEntries; skipped: Set<string> }> {
  const cache = new Map<string, Promise<{ entries: TreeEntries; skipped: Set<string> }>>()
  return (state) => {
    const key = stateKey(state)
    let read = cache.get(key)
    if (!read) {
      read = workspace.entries(state)
      cache.set(key, read)
    }
    return read
  }
}
