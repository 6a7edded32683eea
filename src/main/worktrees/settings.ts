import { readFile } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { settingsFilePaths } from '../governance/settings/load'

/** Claude Code's `worktree` settings that Sous honours. */
export interface WorktreeSettings {
  /** `fresh` (Claude Code's default): from `origin/<default branch>`; `head`: from the current HEAD. */
  baseRef: 'fresh' | 'head'
  /** Folders checked out (sparse-checkout, cone mode); absent: everything. */
  sparsePaths?: string[]
  /** Folders of the main checkout linked into the worktree (`node_modules`); absent: none. */
  symlinkDirectories?: string[]
}

/** The settings, or the sentence saying which file is wrong (worktrees then fail closed). */
export type WorktreeSettingsRead = { ok: true; settings: WorktreeSettings } | { ok: false; message: string }

/**
 * Reads `worktree.baseRef` and `worktree.sparsePaths` from the settings files (managed, local,
 * project, user; the first that sets a key wins, as for every other key). A file that cannot be
 * parsed, or a value of the wrong shape, fails closed: no worktree is made until it is fixed,
 * rather than one made from a base or with paths the user did not mean.
 * Neither of those loosens anything, so a project's own files may set them without trust.
 * `worktree.symlinkDirectories` is read from the managed, local and user files only: a linked
 * folder is shared with the main checkout, so a repository's committed settings naming `src`
 * would quietly make a worktree session's edits land in the base checkout.
 */
export async function readWorktreeSettings(projectRoot: string, options: { sousHome?: string; managedPath?: string } = {}): Promise<WorktreeSettingsRead> {
  const files = settingsFilePaths(projectRoot, options)
  let baseRef: WorktreeSettings['baseRef'] | undefined
  let sparsePaths: string[] | undefined
  let symlinkDirectories: string[] | undefined
  for (const file of [files.managed, files.local, files.project, files.user]) {
    const text = await readFile(file, 'utf8').catch(() => undefined)
    if (text === undefined || text.trim() === '') continue
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      return { ok: false, message: `${file} is not valid JSON (${(error as Error).message}), so no worktree is made until it is fixed.` }
    }
    const worktree = (data as { worktree?: unknown } | null)?.worktree
    if (worktree === undefined) continue
    if (typeof worktree !== 'object' || worktree === null || Array.isArray(worktree)) return { ok: false, message: `"worktree" in ${file} must be an object.` }
    const { baseRef: ref, sparsePaths: paths, symlinkDirectories: links } = worktree as { baseRef?: unknown; sparsePaths?: unknown; symlinkDirectories?: unknown }
    if (ref !== undefined && baseRef === undefined) {
      if (ref !== 'fresh' && ref !== 'head') return { ok: false, message: `worktree.baseRef in ${file} must be "fresh" or "head".` }
      baseRef = ref
    }
    if (paths !== undefined && sparsePaths === undefined) {
      const problem = folderListProblem(paths)
      if (problem) return { ok: false, message: `worktree.sparsePaths in ${file}: ${problem}` }
      sparsePaths = (paths as string[]).map((path) => path.replace(/\/+$/, ''))
    }
    if (links !== undefined && symlinkDirectories === undefined && file !== files.project) {
      const problem = folderListProblem(links)
      if (problem) return { ok: false, message: `worktree.symlinkDirectories in ${file}: ${problem}` }
      symlinkDirectories = (links as string[]).map((path) => path.replace(/\/+$/, ''))
    }
  }
  return {
    ok: true,
    settings: { baseRef: baseRef ?? 'fresh', ...(sparsePaths && sparsePaths.length > 0 && { sparsePaths }), ...(symlinkDirectories && symlinkDirectories.length > 0 && { symlinkDirectories }) },
  }
}

/** Why a `sparsePaths` or `symlinkDirectories` value is refused: it must be folders inside the repository. */
function folderListProblem(paths: unknown): string | undefined {
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string')) return 'it must be a list of folder names.'
  for (const path of paths as string[]) {
    if (path.trim() === '' || isAbsolute(path) || path.split(/[\\/]/).some((part) => part === '..') || path.startsWith('-') || /[\0\n\r]/.test(path)) return `"${path}" is not a folder inside the repository.`
  }
  return undefined
}
