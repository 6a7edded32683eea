import { constants } from 'node:fs'
import { chmod, copyFile, lstat, mkdir, readdir, readlink, rename, rm, rmdir, symlink, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { RestorePlan } from './restore-plan'
import { makeStaging } from './restore-staging'
import type { Workspace } from './workspace'

/** What a restore did. */
export interface RestoreOutcome {
  /** Paths written or deleted. */
  restored: string[]
  /** Conflicts left as they are (all of them, unless forced). */
  kept: string[]
  skipped: Array<{ path: string; why: string }>
}

/** What to restore of a plan. */
export interface ApplyOptions {
  /** Overwrite conflicts too. */
  force?: boolean
  /** Only these paths (the preview's selection); default every change. */
  only?: ReadonlySet<string>
  /** Conflicts to overwrite (the user chose them one by one); the others are kept. */
  overwrite?: ReadonlySet<string>
  /** Text to write instead of the checkpoint's (a file with some hunks deselected in the preview). */
  contents?: ReadonlyMap<string, Buffer>
  /**
   * Runs once every file to write is staged and before the project changes (a rewind writes the
   * conversation's line there). When it throws, the staged files are removed, the project is as it
   * was, and the error is thrown on.
   */
  beforeChanging?: () => Promise<void>
}

/**
 * Writes a plan's changes. Every blob is read first: when one is missing from the store the
 * restore refuses with which checkpoint cannot be restored, and nothing is written. A path that
 * leads through a symlink, or into `.git`, is skipped (restore never follows a symlink out of the
 * project); a symlink in the checkpoint is recreated as a link, never written through. Folders
 * left empty by a deletion are removed, so the tree matches the checkpoint's.
 *
 * Every file is written first into a staging folder in the project (`.sous-restore-<pid>-*`; one a
 * crashed restore left is removed by the next, see `restore-staging.ts`), and only
 * then does anything in the project change (deletions, then renames, which need no space): a disk
 * that refuses a write (full) refuses the restore with the project as it was. Throws only when
 * {@link ApplyOptions.beforeChanging} did (nothing changed) or a change failed part way (rare: a
 * rename or a folder refused).
 */
export async function applyRestore(workspace: Workspace, plan: RestorePlan, options: ApplyOptions = {}): Promise<RestoreOutcome | { error: string }> {
  const conflicts = new Set(plan.conflicts)
  const skipped = [...plan.skipped]
  const kept: string[] = []
  const chosen = plan.changes.filter((change) => {
    if (options.only && !options.only.has(change.path)) return false
    if (conflicts.has(change.path) && !options.force && !options.overwrite?.has(change.path)) {
      kept.push(change.path)
      return false
    }
    return true
  })
  const given = (path: string) => options.contents?.get(path)
  const ids = [...new Set(chosen.flatMap((change) => (change.entry && !given(change.path) ? [change.entry.id] : [])))]
  const { contents, missing } = await workspace.blobs(plan.store, ids)
  if (missing.length > 0) {
    const path = chosen.find((change) => change.entry && missing.includes(change.entry.id))?.path
    return { error: `checkpoint ${plan.checkpoint.id} cannot be restored: the store has lost ${missing.length} of its files' contents (${path ?? missing[0]} among them); nothing was written` }
  }
  const writes = chosen.filter((change) => change.entry || given(change.path))
  const staging = writes.length > 0 ? await makeStaging(plan.root) : undefined
  try {
    const staged = await stage(staging, plan.root, writes, (path) => given(path), contents).catch((error: Error) => ({ error: `the restored files could not be written (${error.message}); nothing was changed` }))
    if ('error' in staged) return staged
    await options.beforeChanging?.()
    return await applyChanges(plan, chosen, staged, given, { kept, skipped })
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true })
  }
}

/** Writes each file to write into `staging` (its mode set), by path: nothing in the project changes yet. */
async function stage(staging: string | undefined, root: string, writes: RestorePlan['changes'], given: (path: string) => Buffer | undefined, contents: ReadonlyMap<string, Buffer>): Promise<Map<string, string>> {
  const staged = new Map<string, string>()
  for (const [index, change] of writes.entries()) {
    // A file the checkpoint did not have but whose deletion the user took only in part stays a plain file.
    const entry = change.entry ?? { mode: '100644', id: '' }
    const bytes = given(change.path) ?? contents.get(entry.id)!
    const temporary = join(staging!, String(index))
    if (entry.mode === '120000' && !given(change.path)) await symlink(bytes.toString('utf8'), temporary)
    else {
      const existing = await lstat(join(root, change.path)).catch(() => undefined)
      await writeFile(temporary, bytes)
      await chmod(temporary, entry.mode === '100755' ? 0o755 : existing?.isFile() ? existing.mode & 0o777 & ~0o111 : 0o644)
    }
    staged.set(change.path, temporary)
  }
  return staged
}

/**
 * Moves a staged file to `to`. A rename replaces a symlink that is there now instead of writing
 * through it. Where `to` is on another file system than the staging folder (a mount inside the
 * project: rename says EXDEV), what is there is removed and the file copied in its place, a link
 * made again as a link: never written through either.
 */
async function moveIntoPlace(from: string, to: string): Promise<void> {
  try {
    await rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    const staged = await lstat(from)
    await unlink(to).catch(ignoreMissing)
    if (staged.isSymbolicLink()) return await symlink(await readlink(from), to)
    await copyFile(from, to, constants.COPYFILE_EXCL)
    await chmod(to, staged.mode & 0o777)
  }
}

/** Deletes, then moves the staged files into place. */
async function applyChanges(plan: RestorePlan, chosen: RestorePlan['changes'], staged: ReadonlyMap<string, string>, given: (path: string) => Buffer | undefined, done: Pick<RestoreOutcome, 'kept' | 'skipped'>): Promise<RestoreOutcome> {
  const { kept, skipped } = done
  const restored: string[] = []
  // Deletions first: a file (or a symlink) may give way to a folder of the same name, and back.
  // Each path is checked when it is written, after the deletions: a symlink that replaced a
  // folder is removed first, and the folder comes back real.
  for (const change of chosen.filter((change) => !change.entry && !given(change.path))) {
    const why = await unsafePath(plan.root, change.path)
    if (why) {
      skipped.push({ path: change.path, why })
      continue
    }
    await unlink(join(plan.root, change.path)).catch(ignoreMissing)
    await removeEmptyParents(plan.root, change.path)
    restored.push(change.path)
  }
  for (const change of chosen.filter((change) => change.entry || given(change.path))) {
    const why = await unsafePath(plan.root, change.path)
    if (why) {
      skipped.push({ path: change.path, why })
      continue
    }
    const absolute = join(plan.root, change.path)
    await mkdir(dirname(absolute), { recursive: true })
    const existing = await lstat(absolute).catch(() => undefined)
    if (existing?.isDirectory()) {
      skipped.push({ path: change.path, why: 'a folder is there now' })
      continue
    }
    await moveIntoPlace(staged.get(change.path)!, absolute)
    restored.push(change.path)
  }
  return { restored, kept, skipped }
}

/** Why writing `path` under `root` is not safe: a `.git` or odd component, or a parent that is a symlink. */
async function unsafePath(root: string, path: string): Promise<string | undefined> {
  const parts = path.split('/')
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return 'not a plain path'
  if (parts.includes('.git')) return 'inside a .git folder'
  for (let depth = 1; depth < parts.length; depth++) {
    const info = await lstat(join(root, ...parts.slice(0, depth))).catch(() => undefined)
    if (!info) return undefined
    if (info.isSymbolicLink()) return `${parts.slice(0, depth).join('/')} is a symlink now; restore does not follow it`
  }
  return undefined
}

async function removeEmptyParents(root: string, path: string): Promise<void> {
  const parts = path.split('/').slice(0, -1)
  for (let depth = parts.length; depth > 0; depth--) {
    const folder = join(root, ...parts.slice(0, depth))
    const left = await readdir(folder).catch(() => undefined)
    if (!left || left.length > 0) return
    await rmdir(folder).catch(() => undefined)
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error
}
