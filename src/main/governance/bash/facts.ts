import { parseArgs, type OptionTable, type ParsedArgs } from './options'

/** A file named in a command's words: which word, where in it the path starts, and how it is used. */
export interface PathArgument {
  /** Index into the command's argv. */
  index: number
  /** Where the path starts in the word (after `--output=`, `of=` or `-o`); 0 for a whole word. */
  from: number
  write: boolean
  /** A folder whose whole tree is read (grep -r, rg, find, ls -R). */
  recursive?: boolean
  /** Relative to the repository's top folder rather than the cwd (`git show HEAD:path`). */
  fromRoot?: boolean
}

/** What one command (wrappers already taken off) does, as far as its words show. */
export interface CommandFacts {
  /**
   * Every option is on the command's read-only allowlist (and any extra check passed): it reads
   * at most the files in `paths` and writes nothing. False for any command we do not know.
   */
  readOnly: boolean
  /** Why it is not read-only (the first reason found). */
  notReadOnly?: string
  paths: PathArgument[]
  /** Files it reads that no word names, relative to the cwd (`grep -r x` searches `.`). */
  impliedReads?: Array<{ path: string; recursive: boolean }>
  /** Files it writes that no word names, relative to the cwd (`nohup.out`, `.git/config`). */
  impliedWrites?: string[]
  /** Files it reads that the analysis cannot name (those a `--files0-from` list names), described. */
  unknownReads?: string[]
  /** An option that runs a program, a pager or an editor (`--pre`, `-exec`, `-O`): no allow rule may cover the command. */
  runsProgram?: string
  /** More operands would be files (cat, grep): what `xargs` appends is then a file it cannot see. */
  operandsArePaths: boolean
}

/** Facts of a command we know nothing about: not read-only; its words are not looked at here. */
export function unknownCommand(name: string): CommandFacts {
  return { readOnly: false, notReadOnly: `${name} is not in the read-only set`, paths: [], operandsArePaths: false }
}

/** How {@link factsFromOptions} reads a command. */
export interface Reading {
  table: OptionTable
  /** What the operands are: files, or text that is not a file. */
  operands: 'paths' | 'none'
  /** Operands (after the pattern or script) are searched recursively. */
  recursive?: boolean
  /** The first operand is a pattern or a script, not a file (unless an option supplied it). */
  firstOperandIsText?: boolean
}

/**
 * Facts from an option table: read-only when every option is known and none writes or runs a
 * program; option values of kind read/write and (per `reading.operands`) the operands are paths.
 */
export function factsFromOptions(argv: readonly string[], reading: Reading, parsed: ParsedArgs = parseArgs(argv, 1, reading.table)): CommandFacts {
  const name = argv[0] ?? ''
  const facts: CommandFacts = { readOnly: true, paths: [], operandsArePaths: reading.operands === 'paths' }
  const refuse = (why: string): void => {
    facts.readOnly = false
    facts.notReadOnly ??= why
  }
  for (const option of parsed.options) {
    switch (option.kind) {
      case 'unknown':
        refuse(`${name} ${option.name} is not an option known to be read-only`)
        break
      case 'read':
      case 'list':
      case 'write':
        if (option.at !== undefined) facts.paths.push({ index: option.at, from: option.from ?? 0, write: option.kind === 'write' })
        if (option.kind === 'write') refuse(`${name} ${option.name} writes a file`)
        if (option.kind === 'list') {
          refuse(`${name} ${option.name} reads files listed in another file`)
          facts.unknownReads = [...(facts.unknownReads ?? []), `files listed by ${name} ${option.name}`]
        }
        break
      case 'write-flag':
        refuse(`${name} ${option.name} writes files`)
        break
      case 'exec':
      case 'exec-flag':
        facts.runsProgram ??= `${name} ${option.name}`
        refuse(`${name} ${option.name} runs a program`)
        break
    }
  }
  if (reading.operands === 'paths') {
    const operands = reading.firstOperandIsText ? parsed.operands.slice(1) : parsed.operands
    for (const index of operands) facts.paths.push({ index, from: 0, write: false, ...(reading.recursive ? { recursive: true } : {}) })
  }
  return facts
}

/** True when one of `names` was given (by any spelling the parse expanded to). */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name))
}
