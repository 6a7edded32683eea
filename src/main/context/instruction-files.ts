import { readFileSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/**
 * Reading CLAUDE.md files and what they import. A file may pull in others with `@path` (relative
 * to itself, absolute, or `~/…`), up to {@link MAX_IMPORT_HOPS} hops; a file already on the chain
 * (a cycle) or already included is skipped. Every file is capped at {@link MAX_INSTRUCTION_CHARS},
 * all of them together at {@link MAX_TOTAL_INSTRUCTION_CHARS}, each cut with a note.
 *
 * A repository is untrusted input: a project's files (and their imports) are read only where they
 * really lead inside the project, so a planted `@~/.ssh/id_rsa` or a CLAUDE.md symlinked to a
 * secret never reaches the model. The user's own `~/.claude/CLAUDE.md` may import from anywhere.
 * Reads are synchronous: the files are small, and a subfolder's file must be ready before the
 * request that follows the tool call which touched it.
 */

/** Longest instruction file we include; the rest is cut with a note (a runaway file must not eat the context). */
export const MAX_INSTRUCTION_CHARS = 40_000
/** All instruction files of a session together. */
export const MAX_TOTAL_INSTRUCTION_CHARS = 120_000
/** `@path` imports are followed this deep. */
export const MAX_IMPORT_HOPS = 5

/** Where an instruction file applies. */
export type InstructionScope = 'user' | 'project' | 'local' | 'subfolder'

/** One instruction file as it goes into the context. */
export interface InstructionFile {
  scope: InstructionScope
  path: string
  content: string
  /** The file whose `@path` pulled this one in. */
  importedBy?: string
  /** The content was cut at the cap. */
  truncated?: boolean
}

/** What reading some instruction files produced: the files, and what was left out and why (for the context view). */
export interface InstructionReading {
  files: InstructionFile[]
  notes: string[]
}

/** Shared state of one session's reading: what is already included and how much room is left. */
export class InstructionBudget {
  /** Real paths already included (each file once per session). */
  readonly included = new Set<string>()
  used = 0

  constructor(readonly limit = MAX_TOTAL_INSTRUCTION_CHARS) {}
}

/** Options of {@link readInstructionFile}. */
export interface ReadOptions {
  scope: InstructionScope
  /** Project files (and their imports) must really lie inside this folder. */
  projectRoot: string
  homeDir?: string
  budget: InstructionBudget
}

/**
 * Reads one instruction file and, after it, the files it imports (depth first, in the order they
 * are named). Missing, empty and unreadable files contribute nothing; files that may not be read
 * are named in `notes`.
 */
export function readInstructionFile(path: string, options: ReadOptions, reading: InstructionReading = { files: [], notes: [] }): InstructionReading {
  visit(path, options, reading, [], undefined)
  return reading
}

function visit(path: string, options: ReadOptions, reading: InstructionReading, chain: string[], importedBy: string | undefined): void {
  const real = realFile(path)
  if (!real) {
    if (importedBy) reading.notes.push(`${path} (imported by ${importedBy}) was not found`)
    return
  }
  if (options.scope !== 'user' && !inside(real, realFile(options.projectRoot, true) ?? resolve(options.projectRoot))) {
    reading.notes.push(`${path} was not read: it leads outside the project (${real})`)
    return
  }
  if (chain.includes(real)) {
    reading.notes.push(`${path} was not imported again: it imports itself through ${importedBy ?? path} (a cycle)`)
    return
  }
  if (options.budget.included.has(real)) return
  options.budget.included.add(real)
  let text: string
  try {
    text = readFileSync(real, 'utf8')
  } catch {
    return
  }
  if (text.trim() === '') return
  const room = Math.min(MAX_INSTRUCTION_CHARS, options.budget.limit - options.budget.used)
  if (room <= 0) {
    reading.notes.push(`${path} was left out: the instruction files already fill their ${options.budget.limit.toLocaleString('en-US')} characters`)
    return
  }
  const truncated = text.length > room
  const content = truncated ? `${text.slice(0, room)}\n… (truncated: the file has ${text.length.toLocaleString('en-US')} characters)` : text
  options.budget.used += Math.min(text.length, room)
  reading.files.push({ scope: options.scope, path, content, ...(importedBy && { importedBy }), ...(truncated && { truncated }) })
  if (chain.length + 1 > MAX_IMPORT_HOPS) {
    if (importPaths(text).length > 0) reading.notes.push(`imports of ${path} were not followed: more than ${MAX_IMPORT_HOPS} hops`)
    return
  }
  for (const target of importPaths(text)) visit(resolveImport(target, dirname(path), options.homeDir ?? homedir()), options, reading, [...chain, real], path)
}

/**
 * The `@path` references of a text, outside code blocks and code spans, in order. A reference
 * starts at a line start or after whitespace (so `user@example.com` is not one).
 */
export function importPaths(text: string): string[] {
  const found: string[] = []
  let fenced = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const prose = line.replace(/`[^`]*`/g, ' ')
    for (const match of prose.matchAll(/(?:^|\s)@((?:~\/|\.{0,2}\/)?[^\s`'"()<>[\]{},;]+)/g)) {
      const target = match[1]!.replace(/[.:!?]+$/, '')
      if (target && !found.includes(target)) found.push(target)
    }
  }
  return found
}

/** Where an import leads: `~/x` under home, absolute as is, anything else beside the importing file. */
export function resolveImport(target: string, fromDir: string, homeDir: string): string {
  if (target === '~' || target.startsWith('~/')) return join(homeDir, target.slice(1))
  return isAbsolute(target) ? target : resolve(fromDir, target)
}

/** Whether `path` is `root` or below it (both real paths). */
export function inside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..')
}

/** The real path of a regular file (or, with `folder`, of a folder); undefined when there is none. */
function realFile(path: string, folder = false): string | undefined {
  try {
    const real = realpathSync(path)
    const info = statSync(real)
    return (folder ? info.isDirectory() : info.isFile()) ? real : undefined
  } catch {
    return undefined
  }
}
