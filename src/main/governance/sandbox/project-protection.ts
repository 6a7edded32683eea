import { join, resolve } from 'node:path'
import { walkTree } from '../../base/walk-tree'
import { isUnder } from '../paths/place'
import { existsHere } from '../paths/real-path'
import type { PlaceholderScope } from './placeholders'

export { isPlaceholder, PlaceholderScope } from './placeholders'

/**
 * What a sandboxed command may not write in the project: every file a trusted configuration runs
 * or loads outside the sandbox, and the folders whose mere existence makes a program run.
 *
 * bubblewrap can only protect a path by mounting over it, so for a protected path that does not
 * exist the library creates a mount point (and removes it after the command), and its placeholder
 * for a file is `/dev/null`, a character device: inside the sandbox `git status` lists it as
 * untracked and `git add -A` refuses it ("can only add regular files"). So this module never asks
 * the library for a placeholder:
 * - a path that exists is protected as it is;
 * - an absent path whose creation alone would run something ({@link BLOCK_CREATION}) gets an empty
 *   folder Sous makes itself ({@link PlaceholderScope}), which the library then binds read-only:
 *   git does not list empty folders, nothing can be created in it, and it cannot be removed or
 *   renamed (a mount point). An absent *file* outside the project (a home's `.gitconfig` or
 *   `.bashrc`, the user settings file) gets an empty regular file instead (`{}` for a `.json`): the
 *   placeholder is on the host for as long as the command runs, and a folder there broke every
 *   program outside the sandbox that reads it meanwhile (git: "unable to access '~/.gitconfig': Is
 *   a directory"), while an empty start-up file or `{}` reads as no configuration. Bound read-only,
 *   it cannot be written, removed or renamed over inside the sandbox either. Sous makes it, rather than the library's bubblewrap, so that commands
 *   running at once share one (the library's, made by one command's bubblewrap while another is
 *   being wrapped, made the other's fail to start), and removes it when the last of them ended;
 * - any other absent path is left alone: what would load it checks it first (the settings, hook
 *   scripts, `.mcp.json`, agents, skills and commands are fingerprinted by the trust step, direnv
 *   keeps its own allow list), it only adds text to the prompt (`CLAUDE.md`), or it matters only
 *   in a home folder (shell start-up files: {@link HOME_FILES} covers a home inside a writable root).
 */

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

/** Bounds on the walk for nested instruction files (`sub/CLAUDE.md`), done for each command. */
const MAX_DEPTH = 4
const MAX_DIRECTORIES = 2000
const SKIPPED = new Set(['node_modules', '.git'])

/**
 * The deny entries that protect `path`: itself when it exists; when it does not, nothing, or (with
 * `blockCreation`) an empty folder in its place made through `placeholders` (without a scope, the
 * path itself, for the library to protect as it does).
 */
export function protect(path: string, blockCreation: boolean, placeholders?: PlaceholderScope, file = false): string[] {
  if (existsHere(path)) return [path]
  if (!blockCreation) return []
  if (!placeholders) return [path]
  return placeholders.hold(path, file) ? [path] : []
}

/** Options of {@link projectProtection}. */
export interface ProtectionOptions {
  home: string
  /** Every folder the sandbox makes writable (a home inside one gets its start-up files protected). */
  writableRoots: string[]
  /** Scripts the obeyed hooks run (absolute): protected, and an absent one cannot be created. */
  hookScripts?: string[]
  /** Where this command's placeholder folders are held. */
  placeholders?: PlaceholderScope
}

/** The project's deny entries as the files are now (computed for each command). */
export function projectProtection(root: string, o: ProtectionOptions): string[] {
  const denies: string[] = []
  for (const name of LOADED_BY_CONFIG) denies.push(...protect(join(root, name), false))
  for (const name of BLOCK_CREATION) denies.push(...protect(join(root, name), true, o.placeholders))
  for (const file of nestedInstructionFiles(root)) denies.push(file)
  // A hook script that is not there yet would run, as the trusted hook, whatever a command put there.
  for (const script of o.hookScripts ?? []) if (isInside(script, root)) denies.push(...protect(script, true, o.placeholders))
  if (o.writableRoots.some((dir) => isInside(o.home, dir))) for (const name of HOME_FILES) denies.push(...protect(join(o.home, name), true, o.placeholders, true))
  return [...new Set(denies)]
}

/** `CLAUDE.md` and `CLAUDE.local.md` below the project root (the root's own are in {@link LOADED_BY_CONFIG}). */
function nestedInstructionFiles(root: string): string[] {
  const found: string[] = []
  walkTree(root, {
    maxDepth: MAX_DEPTH,
    maxDirectories: MAX_DIRECTORIES,
    descend: (entry) => !SKIPPED.has(entry.name),
    visit(path, entry, depth) {
      if (depth > 0 && (entry.name === 'CLAUDE.md' || entry.name === 'CLAUDE.local.md')) found.push(path)
    },
  })
  return found
}

function isInside(path: string, dir: string): boolean {
  return isUnder(resolve(path), resolve(dir))
}
