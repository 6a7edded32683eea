import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { walkTree } from '../../base/walk-tree'
import { isUnder } from '../paths/place'
import { existsHere } from '../paths/real-path'

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
 * The empty folders one command's protection stands in for absent paths with. The folders are
 * shared by every command running at once (counted), and removed, when still empty, once the last
 * of them released its scope.
 */
export class PlaceholderScope {
  private readonly held: string[] = []

  /** `projectRoot`: inside it a file placeholder would show in `git status`, so every placeholder there is a folder. */
  constructor(
    private readonly writableRoots: readonly string[],
    private readonly projectRoot?: string,
  ) {}

  /**
   * Makes (or shares) a placeholder at the absent `path`: an empty folder, or, for a `file` outside
   * the project, an empty file. False when none is needed or none could be made.
   */
  hold(path: string, file = false): boolean {
    // Outside every writable folder the command cannot create it anyway.
    if (!this.writableRoots.some((dir) => isInside(path, dir))) return false
    const entry = HELD.get(path)
    if (entry) {
      entry.count++
      this.held.push(path)
      return true
    }
    if (existsHere(path)) return false
    const asFile = file && !(this.projectRoot !== undefined && isInside(path, this.projectRoot))
    let made: Omit<Held, 'count'> | undefined
    try {
      made = asFile ? makeFile(path) : { top: mkdirSync(path, { recursive: true, mode: 0o755 }) ?? path }
    } catch {
      return false
    }
    HELD.set(path, { count: 1, ...made })
    this.held.push(path)
    return true
  }

  /**
   * Keeps a placeholder another command made alive while this one starts: the library scans its
   * working directory for protected names itself, finds the folder and binds it, and bubblewrap
   * fails when the other command's end removed it in between.
   */
  share(path: string): void {
    const entry = HELD.get(path)
    if (!entry) return
    entry.count++
    this.held.push(path)
  }

  /** The command ended (or never started): its share of each folder is given back. */
  release(): void {
    for (const path of this.held.splice(0)) {
      const entry = HELD.get(path)
      if (!entry || --entry.count > 0) continue
      HELD.delete(path)
      if (entry.file && !unlinkIfOurs(path, entry.file)) continue
      removeEmptyUpTo(entry.file ? dirname(path) : path, entry.top)
    }
  }
}

/** A placeholder in use: how many commands hold it, the topmost folder made for it, and, for a file, what identifies it. */
interface Held {
  count: number
  top: string
  file?: { dev: number; ino: number; size: number }
}

/** Makes the empty file placeholder at `path` (and the folders above it): `{}` for JSON, so a reader sees no settings rather than bad ones. */
function makeFile(path: string): Omit<Held, 'count'> {
  const parent = mkdirSync(dirname(path), { recursive: true, mode: 0o755 })
  // `wx`: never over something that appeared since the check.
  const fd = openSync(path, 'wx', 0o644)
  try {
    if (path.endsWith('.json')) writeSync(fd, '{}\n')
    const st = fstatSync(fd)
    return { top: parent ?? path, file: { dev: st.dev, ino: st.ino, size: st.size } }
  } finally {
    closeSync(fd)
  }
}

/**
 * Removes the file placeholder unless somebody outside the sandbox replaced or wrote it meanwhile
 * (`git config --global` renames its own file over it): then it is theirs and stays.
 */
function unlinkIfOurs(path: string, file: NonNullable<Held['file']>): boolean {
  try {
    const st = lstatSync(path)
    if (!st.isFile() || st.dev !== file.dev || st.ino !== file.ino || st.size !== file.size) return false
    unlinkSync(path)
    return true
  } catch {
    return false
  }
}

/** Whether `path` is a placeholder folder a running command holds (it stands for nothing being there). */
export function isPlaceholder(path: string): boolean {
  return HELD.has(path)
}

/** Placeholders in use, by path. */
const HELD = new Map<string, Held>()

/** Removes `path` and the empty folders above it up to `top` (when `top` is not above it, nothing), stopping at the first that is not empty (somebody put something there). */
function removeEmptyUpTo(path: string, top: string): void {
  for (let dir = path; isInside(dir, top); dir = dirname(dir)) {
    try {
      rmdirSync(dir)
    } catch {
      return
    }
    if (dir === top) return
  }
}

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

/**
 * The library's own working-directory denies, named by Sous first when that directory is writable,
 * so an absent one gets a placeholder folder (the library then finds it there and binds it).
 */
export function libraryCwdDenies(writableRoots: string[], placeholders?: PlaceholderScope, cwd: string | undefined = workingDirectory()): string[] {
  if (cwd === undefined) return []
  if (!writableRoots.some((dir) => isInside(cwd, dir))) {
    for (const name of LIBRARY_CWD_NAMES) placeholders?.share(join(cwd, name))
    return []
  }
  return LIBRARY_CWD_NAMES.flatMap((name) => protect(join(cwd, name), true, placeholders))
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

function workingDirectory(): string | undefined {
  try {
    return process.cwd()
  } catch {
    return undefined
  }
}
