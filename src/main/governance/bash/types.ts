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
  /** As written. */
  path: string
  /** Absolute (glob: the directory before the first glob segment); empty when not knowable. */
  resolved: string
  inside: boolean
  write: boolean
  via: 'redirect' | 'argument'
  /** `/dev/null` and friends: never counts as a write outside. */
  exempt: boolean
  /** Index into `commands`. */
  command: number
}

/** What {@link analyzeBash} finds. */
export interface BashAnalysis {
  commands: BashCommand[]
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
