import { existsSync, type Dirent } from 'node:fs'
import { join, resolve } from 'node:path'
import { walkTree } from '../../base/walk-tree'
import { isUnder } from '../paths/place'
import { protect, type PlaceholderScope } from './project-protection'

/**
 * What sandbox-runtime 0.0.83 protects of its own in its process's working directory (its
 * `DANGEROUS_FILES`, `getDangerousDirectories()`, and each repository's hooks and config, nested
 * ones found by a ripgrep scan `mandatoryDenySearchDepth` deep), computed by Sous for the project
 * root: Sous's process runs in `/`, in a home folder, or serves several projects, so the library's
 * scan looks at an unrelated folder, and these held in the project only when the process happened
 * to run there. With them here, the library's scan is kept to its least ({@link LIBRARY_SCAN_DEPTH}).
 */

/** The library's dangerous names; at the project root an absent one cannot be created (a placeholder folder stands in for it). */
export const LIBRARY_NAMES = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json', '.vscode', '.idea', '.claude/commands', '.claude/agents']

/**
 * The library's own scan depth Sous configures (its least, 1: the working directory's own names
 * and the files directly below it). The project is covered by {@link libraryDenies} instead.
 */
export const LIBRARY_SCAN_DEPTH = 1

/**
 * How deep below the root {@link libraryDenies} looks: one level further than the library's
 * default (3) does from its working directory, so a process running one level below the project
 * root loses nothing by the library's shallower scan. A protected folder (`x/.vscode`, `x/.git`)
 * is found where the folder holding it is at most `NESTED_DEPTH - 1` deep, a protected file at
 * most `NESTED_DEPTH` deep, as the library counts.
 */
const NESTED_DEPTH = 3
const MAX_DIRECTORIES = 2000

const FILES = new Set(LIBRARY_NAMES.slice(0, 9))
const FOLDERS = new Set(['.vscode', '.idea'])
const CLAUDE_FOLDERS = new Set(['commands', 'agents'])

/**
 * The project's deny entries for the library's names: the root's own (absent ones held by a
 * placeholder folder, as the library would make a mount point in its working directory), and
 * below the root what exists: protected files, `.vscode`, `.idea`, `.claude/commands`,
 * `.claude/agents`, and each nested repository's `hooks` (absent: held, as the library denies
 * a repository's hooks before there are any) and `config`. Names are matched case-insensitively,
 * as the library does. The root's own repository is `git-denies.ts`'s.
 */
export function libraryDenies(root: string, placeholders?: PlaceholderScope): string[] {
  const denies = LIBRARY_NAMES.flatMap((name) => protect(join(root, name), true, placeholders))
  walkTree(root, {
    maxDepth: NESTED_DEPTH,
    maxDirectories: MAX_DIRECTORIES,
    descend: (entry, depth) => !prunes(entry, depth),
    visit(path, entry, depth) {
      const name = entry.name.toLowerCase()
      if (depth === 0) return
      if (FILES.has(name)) denies.push(path)
      if (!entry.isDirectory() || depth > NESTED_DEPTH - 1) return
      if (FOLDERS.has(name) || (CLAUDE_FOLDERS.has(name) && parentName(entry) === '.claude')) denies.push(path)
      if (name === '.git' && existsSync(join(path, 'HEAD'))) {
        denies.push(...protect(join(path, 'hooks'), true, placeholders))
        if (existsSync(join(path, 'config'))) denies.push(join(path, 'config'))
      }
    },
  })
  return [...new Set(denies)]
}

/**
 * The library's own working-directory denies, named by Sous first when that directory is writable,
 * so an absent one gets a placeholder folder (the library then finds it there and binds it); when
 * it is not, a placeholder another command holds there is shared, so that it outlives this one's wrap.
 */
export function libraryCwdDenies(writableRoots: string[], placeholders?: PlaceholderScope, cwd: string | undefined = processWorkingDirectory()): string[] {
  if (cwd === undefined) return []
  if (!writableRoots.some((dir) => isUnder(resolve(cwd), resolve(dir)))) {
    for (const name of LIBRARY_NAMES) placeholders?.share(join(cwd, name))
    return []
  }
  return LIBRARY_NAMES.flatMap((name) => protect(join(cwd, name), true, placeholders))
}

/** Folders not gone into: what the library leaves out (`node_modules`), and the protected folders themselves (denied whole). */
function prunes(entry: Dirent, depth: number): boolean {
  const name = entry.name.toLowerCase()
  return name === 'node_modules' || name === '.git' || FOLDERS.has(name) || (CLAUDE_FOLDERS.has(name) && parentName(entry) === '.claude') || depth >= NESTED_DEPTH
}

function parentName(entry: Dirent): string {
  const parent = entry.parentPath
  return parent.slice(parent.lastIndexOf('/') + 1).toLowerCase()
}

/** The process's working directory (the folder the library scans), or undefined when it is gone. */
export function processWorkingDirectory(): string | undefined {
  try {
    return process.cwd()
  } catch {
    return undefined
  }
}
