import type { Place } from '../paths/place'
import type { WordValue } from './words'

/** One redirection of a simple command. */
export interface BashRedirect {
  /** Operator as written: `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<`… */
  op: string
  /** Dequoted target when literal (empty for heredocs). */
  target: string
  literal: boolean
  /** Writes (or truncates) a file. */
  write: boolean
  /** The target word (its unquoted `~` and glob characters matter). */
  word: WordValue
}

/** A leading `NAME=value` of a simple command. */
export interface BashAssignment {
  name: string
  value: string
  literal: boolean
}

/** A simple command found anywhere in the input (including inside substitutions). */
export interface BashCommand {
  /** Words, dequoted when literal, raw text otherwise. */
  argv: string[]
  /** Per-word literal facts, parallel to `argv`. */
  words: WordValue[]
  redirects: BashRedirect[]
  assignments: BashAssignment[]
  /** The command's source text. */
  text: string
  /** Some word's value is only known at run time (variables, substitutions). */
  dynamic: boolean
  /** Found inside `$(...)`, backticks, `<(...)` or a `bash -c` string. */
  nested: boolean
  /** Reads stdin from a pipe, heredoc or herestring. */
  stdinFed: boolean
}

/** A file the command reads or writes, as far as the syntax shows. */
export interface BashPath {
  /** As written (for an option, the part after `--name=`). */
  path: string
  /** Absolute, normalized as written (glob: the folder before the first glob segment); empty when not knowable. */
  resolved: string
  /** Where it really leads: symlinks followed as the kernel does, a dangling link's target included; empty when not knowable. */
  real: string
  /** Inside the project (or an additional directory), as written and where it leads; a glob, with all it matches. */
  inside: boolean
  write: boolean
  /** Named by a redirection, by a word, or implied (`grep -r` searching `.`, `nohup` writing `nohup.out`). */
  via: 'redirect' | 'argument' | 'implied'
  /** `/dev/null` and friends: never counts as a write outside. */
  exempt: boolean
  /** Index into `commands`. */
  command: number
  /** A folder whose whole tree is read (grep -r, rg, find). */
  recursive?: boolean
  /** For a glob: the files it matches now, as written (absolute) and where each really leads; undefined when too many to list. */
  matches?: Place[]
  glob?: boolean
}

/** What the analysis concluded about one command, parallel to `commands`. */
export interface CommandVerdict {
  /** Every wrapper and the command itself are read-only by their options, and no variable is set. */
  readOnly: boolean
  /** Why it is not read-only. */
  notReadOnly?: string
  /** An option or wrapper runs a program named in the words (`--pre`, `-exec`, `-O`): no allow rule may cover it. */
  runsProgram?: string
}

/** What {@link analyzeBash} finds. */
export interface BashAnalysis {
  commands: BashCommand[]
  verdicts: CommandVerdict[]
  paths: BashPath[]
  /** Some write target (redirect or write command argument) lies outside the project or is unknowable. */
  writesOutside: boolean
  /** Every command is in the read-only set, nothing is written, and the parse is clean. */
  readOnly: boolean
  /** Reasons the command can never be auto-allowed (substitution, eval, parse error…). Empty when clean. */
  problems: string[]
  /** `rm`/`rmdir` of a critical path (/, a top-level dir, home, the project or its parents, a variable target). */
  critical: string[]
}

/** Where the command runs. */
export interface AnalyzeOptions {
  cwd: string
  projectRoot: string
  additionalDirectories?: string[]
  home?: string
}
