import { lstatSync, readdirSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'

/**
 * What a sandboxed command may not write in the project: every file a trusted configuration runs
 * or loads outside the sandbox, and the folders whose mere existence makes a program run.
 *
 * bubblewrap can only protect a path by mounting over it, so a protected path that does not exist
 * gets a mount point the library creates (and removes after the command). The library's own
 * placeholder for a file is `/dev/null`, a character device: inside the sandbox `git status` lists
 * it as untracked and `git add -A` refuses it ("can only add regular files"). So this module never
 * asks for a file placeholder:
 * - a path that exists is protected as it is;
 * - an absent path whose creation alone would run something ({@link BLOCK_CREATION}) is protected
 *   by an empty read-only *directory* in its place: git does not list empty directories, nothing
 *   can be created in it, and it cannot be removed or renamed (a mount point);
 * - any other absent path is left alone: what would load it checks it first (the settings, hook
 *   scripts, `.mcp.json`, agents, skills and commands are fingerprinted by the trust step, direnv
 *   keeps its own allow list), it only adds text to the prompt (`CLAUDE.md`), or it matters only
 *   in a home folder (shell start-up files: {@link HOME_FILES} covers a home inside a writable root).
 */

/** The child a deny names so that the library's placeholder for its absent parent is a directory. */
export const PLACEHOLDER_CHILD = '.sous-protected'

/**
 * Files and folders in the project that configuration outside the sandbox runs or loads (shell
 * and git start-up files, as Claude Code protects them; the settings and what trusted settings
 * run or load: hooks, skills, agents, commands, instruction files, direnv's `.envrc`): protected
 * while they exist.
 */
export const LOADED_BY_CONFIG = [
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.gitconfig',
  '.gitmodules',
  '.ripgreprc',
  '.mcp.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/agents',
  '.claude/commands',
  '.claude/hooks',
  '.claude/skills',
  '.claude/CLAUDE.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  '.envrc',
]

/** Folders whose creation alone runs something outside the sandbox (an editor's tasks run when the folder opens). */
export const BLOCK_CREATION = ['.vscode', '.idea']

/** Start-up files of a home folder: protected (absent ones included) wherever a home lies inside a writable root. */
export const HOME_FILES = ['.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.gitconfig', '.ripgreprc']

/**
 * What the library itself protects in its process's working directory (`DANGEROUS_FILES` and
 * `getDangerousDirectories()` of sandbox-runtime 0.0.83), absent ones with a `/dev/null` file.
 * When that directory is writable, Sous names them first (see {@link libraryCwdDenies}).
 */
const LIBRARY_CWD_NAMES = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json', '.vscode', '.idea', '.claude/commands', '.claude/agents']

/** Bounds on the walk for nested instruction files (`sub/CLAUDE.md`), done for each command. */
const MAX_DEPTH = 4
const MAX_DIRECTORIES = 2000
const SKIPPED = new Set(['node_modules', '.git'])

/**
 * The deny entries that protect `path`: itself when it exists; when it does not, nothing, or (with
 * `blockCreation`) the path and a child below it, which makes the library's placeholder an empty
 * read-only directory instead of a `/dev/null` file.
 */
export function protect(path: string, blockCreation: boolean): string[] {
  if (exists(path)) return [path]
  return blockCreation ? [path, join(path, PLACEHOLDER_CHILD)] : []
}

/** Options of {@link projectProtection}. */
export interface ProtectionOptions {
  home: string
  /** Every folder the sandbox makes writable (a home inside one gets its start-up files protected). */
  writableRoots: string[]
  /** Scripts the obeyed hooks run (absolute): protected, and an absent one cannot be created. */
  hookScripts?: string[]
}

/** The project's deny entries as the files are now (computed for each command). */
export function projectProtection(root: string, o: ProtectionOptions): string[] {
  const denies: string[] = []
  for (const name of LOADED_BY_CONFIG) denies.push(...protect(join(root, name), false))
  for (const name of BLOCK_CREATION) denies.push(...protect(join(root, name), true))
  for (const file of nestedInstructionFiles(root)) denies.push(file)
  // A hook script that is not there yet would run, as the trusted hook, whatever a command put there.
  for (const script of o.hookScripts ?? []) if (isInside(script, root)) denies.push(...protect(script, true))
  if (o.writableRoots.some((dir) => isInside(o.home, dir))) for (const name of HOME_FILES) denies.push(...protect(join(o.home, name), true))
  return [...new Set(denies)]
}

/**
 * The library's own working-directory denies, named by Sous first when that directory is writable,
 * so an absent one gets a directory placeholder (the library then finds its path decided).
 */
export function libraryCwdDenies(writableRoots: string[], cwd: string | undefined = workingDirectory()): string[] {
  if (cwd === undefined || !writableRoots.some((dir) => isInside(cwd, dir))) return []
  return LIBRARY_CWD_NAMES.flatMap((name) => protect(join(cwd, name), true))
}

/** `CLAUDE.md` and `CLAUDE.local.md` below the project root (the root's own are in {@link LOADED_BY_CONFIG}). */
function nestedInstructionFiles(root: string): string[] {
  const found: string[] = []
  let visited = 0
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || visited >= MAX_DIRECTORIES) return
    visited++
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) walk(join(dir, entry.name), depth + 1)
      else if (depth > 0 && (entry.name === 'CLAUDE.md' || entry.name === 'CLAUDE.local.md')) found.push(join(dir, entry.name))
    }
  }
  walk(root, 0)
  return found
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path))
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..')
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function workingDirectory(): string | undefined {
  try {
    return process.cwd()
  } catch {
    return undefined
  }
}
