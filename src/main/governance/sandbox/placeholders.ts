import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { PLACEHOLDER_IGNORE_FILE, PLACEHOLDER_IGNORE_TEXT } from '../../base/placeholder-folder'
import { isUnder } from '../paths/place'
import { sweepJournals, writeJournal, type Identity, type JournalEntry } from './placeholder-journal'
import { existsHere } from '../paths/real-path'

/*
 * The placeholders that stand in for absent protected paths while sandboxed commands run (see
 * `project-protection.ts` for which paths get one and why): empty folders, or, outside the
 * project, empty files. Shared by every command running at once, counted, and removed once the
 * last command gave its share back.
 */

/**
 * The empty folders one command's protection stands in for absent paths with. The folders are
 * shared by every command running at once (counted), and removed, when still empty, once the last
 * of them released its scope.
 */
export class PlaceholderScope {
  private readonly held: string[] = []

  /** `projectRoot`: inside it a file placeholder would show in `git status`, so every placeholder there is a folder (but in its git folder). */
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
    // In the project's working tree (not its git folder) git lists what is there: no file stands in
    // for a file, and a folder holds an ignore file (else `git clean -fd` fails on it).
    const inWorkingTree = this.projectRoot !== undefined && isInside(path, this.projectRoot) && !path.split(sep).includes('.git')
    const asFile = file && !inWorkingTree
    let made: Omit<Held, 'count'> | undefined
    try {
      made = asFile ? makeFile(path) : makeFolder(path, inWorkingTree)
    } catch {
      return false
    }
    HELD.set(path, { count: 1, ...made })
    journalLater()
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

  /**
   * Shares every placeholder among `paths` that another command made: a deny entry names a path
   * that exists when the policy is computed, and one that exists only as another command's
   * placeholder (a linked worktree's `config.worktree`, a `.vscode` folder) is removed when that
   * command ends — bubblewrap, still starting this one, then fails ("Can't get type of source").
   */
  keep(paths: readonly string[]): void {
    const mine = new Set(this.held)
    for (const path of paths) if (!mine.has(path) && HELD.has(path)) this.share(path)
  }

  /** The command ended (or never started): its share of each placeholder is given back; the last share removes it. */
  release(): void {
    // Last made first: a placeholder's folders above it (`.claude` for `.claude/commands`) may hold a later one (`.claude/agents`).
    for (const path of this.held.splice(0).reverse()) {
      const entry = HELD.get(path)
      if (!entry || --entry.count > 0) continue
      HELD.delete(path)
      journalLater()
      removePlaceholder({ path, ...entry })
    }
  }
}

/**
 * Keeps a journal of the placeholders in use in `dir` from now on, after removing the ones that
 * processes now gone left behind (`placeholder-journal.ts`). Called once, when the sandbox starts.
 */
export function journalPlaceholdersIn(dir: string): void {
  const file = join(dir, `placeholders-${process.pid}.json`)
  sweepJournals(dir, removePlaceholder, !written.has(file))
  journal = file
  written.add(file)
  journalLater()
}

/** This process's journal file, once {@link journalPlaceholdersIn} named its folder. */
let journal: string | undefined
/** The journal files this process has kept (a second start in the same home keeps its own). */
const written = new Set<string>()
let journalDue = false

/** Writes the journal once the current run of holds and releases is over (a command's policy makes a dozen at once), before anything awaits. */
function journalLater(): void {
  if (journal === undefined || journalDue) return
  journalDue = true
  queueMicrotask(() => {
    journalDue = false
    if (journal !== undefined) writeJournal(journal, [...HELD].map(([path, { count: _count, ...entry }]) => ({ path, ...entry })))
  })
}

/**
 * Removes a placeholder that nobody holds any more, unless it is no longer the one Sous made
 * (replaced, or written meanwhile: then it is somebody's), and the empty folders made for it.
 */
function removePlaceholder(entry: JournalEntry): void {
  const { path } = entry
  if (!entry.folder && !unlinkIfOurs(path, entry.id)) return
  if (entry.folder && !sameFolder(path, entry.id)) return
  if (entry.ignore) unlinkIfOurs(join(path, PLACEHOLDER_IGNORE_FILE), entry.ignore)
  removeEmptyUpTo(entry.folder ? path : dirname(path), entry.top)
}

/** Whether `path` is still the folder identified by `id`. */
function sameFolder(path: string, id: Identity): boolean {
  try {
    const st = lstatSync(path)
    return st.isDirectory() && st.dev === id.dev && st.ino === id.ino
  } catch {
    return false
  }
}

/** Whether `path` is still the file placeholder identified by `id`, unwritten. */
function sameAs(path: string, id: Identity): boolean {
  try {
    const st = lstatSync(path)
    return st.isFile() && st.dev === id.dev && st.ino === id.ino && st.size === id.size
  } catch {
    return false
  }
}

/** Makes the folder placeholder at `path` (and the folders above it); `marked`: with the ignore file git reads (see `base/placeholder-folder.ts`). */
function makeFolder(path: string, marked: boolean): Omit<Held, 'count'> {
  const top = mkdirSync(path, { recursive: true, mode: 0o755 }) ?? path
  const st = lstatSync(path)
  const made: Omit<Held, 'count'> = { top, folder: true, id: { dev: st.dev, ino: st.ino, size: 0 } }
  if (!marked) return made
  try {
    made.ignore = writeNew(join(path, PLACEHOLDER_IGNORE_FILE), PLACEHOLDER_IGNORE_TEXT)
  } catch {
    // Without it the folder still protects the path; git only lists it meanwhile.
  }
  return made
}

/** A placeholder in use: how many commands hold it, and what the journal keeps of it (the topmost folder made for it, whether it is a folder, what identifies it and its ignore file). */
type Held = Omit<JournalEntry, 'path'> & { count: number }

/** Makes the empty file placeholder at `path` (and the folders above it): `{}` for JSON, so a reader sees no settings rather than bad ones. */
function makeFile(path: string): Omit<Held, 'count'> {
  const parent = mkdirSync(dirname(path), { recursive: true, mode: 0o755 })
  // `wx`: never over something that appeared since the check.
  return { top: parent ?? path, id: writeNew(path, path.endsWith('.json') ? '{}\n' : '') }
}

/** Creates the file `path` with `text` (`wx`: never over something that appeared since the check); what identifies it. */
function writeNew(path: string, text: string): Identity {
  const fd = openSync(path, 'wx', 0o644)
  try {
    if (text) writeSync(fd, text)
    const st = fstatSync(fd)
    return { dev: st.dev, ino: st.ino, size: st.size }
  } finally {
    closeSync(fd)
  }
}

/**
 * Removes the file placeholder unless somebody outside the sandbox replaced or wrote it meanwhile
 * (`git config --global` renames its own file over it): then it is theirs and stays.
 */
function unlinkIfOurs(path: string, id: Identity): boolean {
  try {
    if (!sameAs(path, id)) return false
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


function isInside(path: string, dir: string): boolean {
  return isUnder(resolve(path), resolve(dir))
}
