import { AppError } from '../../../shared/ipc/result'
import { isBinary, readBlobs } from './blobs'
import { headOf, MAX_TEXT_BYTES } from './changes'
import { git, gitOut } from './git'

/** One file "Update from base" would change in the worktree, with both texts when they are text. */
export interface UpdateFile {
  path: string
  change: 'added' | 'modified' | 'deleted'
  before?: string
  after?: string
}

/** What taking the base into a worktree would do, computed without touching either. */
export interface UpdatePreview {
  baseHead: string
  head: string
  upToDate: boolean
  files: UpdateFile[]
  /** Files git could not merge: the update is refused until they are resolved by hand. */
  conflicts: string[]
  /** The worktree has uncommitted changes: a rebase is refused, a merge goes only where git allows it. */
  dirty: boolean
}

const text = (bytes: Buffer | undefined) => (bytes && bytes.length <= MAX_TEXT_BYTES && !isBinary(bytes) ? bytes.toString('utf8') : undefined)

/**
 * Previews "Update from base": the base checkout's HEAD merged into the worktree's HEAD with
 * `git merge-tree --write-tree` (git 2.38 or later), which writes objects but touches no
 * checkout, ref or index; the files that merge would change, and the ones it could not merge.
 */
export async function previewUpdate(baseRoot: string, worktree: string, env?: NodeJS.ProcessEnv): Promise<UpdatePreview> {
  const options = { cwd: worktree, ...(env && { env }) }
  const [baseHead, head] = await Promise.all([headOf(baseRoot, env), headOf(worktree, env)])
  const status = await gitOut(['status', '--porcelain', '--untracked-files=no'], options)
  const dirty = status.length > 0
  const mergeBase = await gitOut(['merge-base', head, baseHead], options)
  if (mergeBase === baseHead) return { baseHead, head, upToDate: true, files: [], conflicts: [], dirty }
  const merged = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', head, baseHead], { ...options, okCodes: [1] })
  if (!merged.ok) throw new AppError('UNAVAILABLE', /unknown option|usage/i.test(merged.error) ? 'Update from base needs git 2.38 or later (git merge-tree --write-tree).' : `git merge-tree: ${merged.error}`)
  const [tree, ...rest] = merged.stdout.split('\n')
  const conflicts = merged.code === 1 ? rest.filter(Boolean) : []
  const listing = await gitOut(['diff', '--no-renames', '--no-ext-diff', '--no-textconv', '--name-status', '-z', head, tree!], options)
  const fields = listing.split('\0')
  const changes: Array<{ path: string; change: UpdateFile['change'] }> = []
  for (let i = 0; i + 1 < fields.length; i += 2) changes.push({ path: fields[i + 1]!, change: fields[i] === 'A' ? 'added' : fields[i] === 'D' ? 'deleted' : 'modified' })
  const paths = changes.map((entry) => entry.path)
  const [before, after] = await Promise.all([readBlobs(worktree, head, paths, env), readBlobs(worktree, tree!, paths, env)])
  const files = changes.map(({ path, change }) => {
    const b = text(before.get(path))
    const a = text(after.get(path))
    return { path, change, ...(b !== undefined && { before: b }), ...(a !== undefined && { after: a }) }
  })
  return { baseHead, head, upToDate: false, files, conflicts, dirty }
}

/**
 * Takes the base into the worktree as previewed: a merge commit, or a rebase of the worktree's
 * commits onto the base. Refused when the base or the worktree moved since the preview, when the
 * preview had conflicts, or (rebase) with uncommitted changes; a git failure halfway is aborted,
 * so the worktree is never left mid-merge. Answers the worktree's new HEAD.
 */
export async function applyUpdate(baseRoot: string, worktree: string, choice: { mode: 'merge' | 'rebase'; baseHead: string; head: string }, env?: NodeJS.ProcessEnv): Promise<{ head: string }> {
  const preview = await previewUpdate(baseRoot, worktree, env)
  if (preview.baseHead !== choice.baseHead || preview.head !== choice.head) throw new AppError('CONFLICT', 'The base or the worktree moved since the preview. Preview again.')
  if (preview.upToDate) return { head: preview.head }
  if (preview.conflicts.length > 0) throw new AppError('CONFLICT', `Updating would conflict in ${preview.conflicts.join(', ')}: resolve it in a terminal (git merge) instead.`)
  if (choice.mode === 'rebase' && preview.dirty) throw new AppError('CONFLICT', 'The worktree has uncommitted changes: commit them before a rebase (or merge instead).')
  const options = { cwd: worktree, ...(env && { env }) }
  const args = choice.mode === 'merge' ? ['merge', '--no-edit', '-m', `Merge the base (${choice.baseHead.slice(0, 8)}) into this worktree`, choice.baseHead] : ['rebase', choice.baseHead]
  const done = await git(args, options)
  if (!done.ok) {
    await git([choice.mode, '--abort'], options)
    throw new AppError('CONFLICT', `git ${choice.mode} failed and was undone: ${done.error}`)
  }
  return { head: await headOf(worktree, env) }
}
