/**
 * Reading a command's options from a table, the way getopt_long (and git's parse-options) reads
 * them: short options bundled (`-la`), values attached or in the next word (`-n5`, `-n 5`,
 * `--lines=5`, `--lines 5`), long options abbreviated to a unique prefix, `--` ending options.
 * The table says what each option does with its value; an option that is not in it is
 * `unknown`, and an unknown option means "we cannot vouch for this command".
 */

/**
 * What an option does, which decides both the read-only verdict and the path facts:
 * - `flag`: takes no value;
 * - `value`: takes a value that is not a file (a number, a format, a pattern);
 * - `optional`: takes a value only when attached (`--color=never`, `-n5`);
 * - `read`: takes a file or folder it reads;
 * - `write`: takes a file or folder it writes;
 * - `list`: takes a file that lists more files to read (`file -f`, `--files0-from`): those are not known;
 * - `write-flag`: takes no value but writes files no word names (`file -C`);
 * - `exec`: takes a value and runs a program, a pager or an editor (`--pre CMD`);
 * - `exec-flag`: takes no value and runs a program (`rg -z` starts decompressors).
 */
export type OptionKind = 'flag' | 'value' | 'optional' | 'read' | 'list' | 'write' | 'write-flag' | 'exec' | 'exec-flag'

/** How one command reads its options. */
export interface OptionTable {
  /** Every option this table knows, by spelling (`-n`, `--lines`). */
  options: Readonly<Record<string, OptionKind>>
  /** Long options may be shortened to a unique prefix (getopt_long, git); default true. */
  abbreviations?: boolean
  /** `-5`-style numeric options (head, tail, git log, nice). */
  numeric?: boolean
  /** Options may come after operands (GNU permutation); default true. False: the first operand ends them. */
  permute?: boolean
}

/** One option as read from the words. */
export interface ParsedOption {
  /** The option's full spelling (an abbreviation is expanded). */
  name: string
  kind: OptionKind | 'unknown'
  value?: string
  /** Index of the word holding the value. */
  at?: number
  /** Where the value starts in that word (after `--name=` or `-n`); 0 for a whole word. */
  from?: number
}

/** The options and operands of a command. */
export interface ParsedArgs {
  options: ParsedOption[]
  /** Indexes (into the argv given) of the operands. */
  operands: number[]
}

const TAKES_VALUE = new Set<OptionKind | 'unknown'>(['value', 'read', 'list', 'write', 'exec'])

/** Reads `argv` from index `start` (1: after the command name) with `table`. */
export function parseArgs(argv: readonly string[], start: number, table: OptionTable): ParsedArgs {
  const options: ParsedOption[] = []
  const operands: number[] = []
  const permute = table.permute ?? true
  let optionsEnded = false
  for (let index = start; index < argv.length; index++) {
    const word = argv[index] as string
    if (optionsEnded || word === '-' || !word.startsWith('-')) {
      operands.push(index)
      if (!permute) optionsEnded = true
      continue
    }
    if (word === '--') {
      optionsEnded = true
      continue
    }
    if (word.startsWith('--')) {
      index = readLong(argv, index, table, options)
      continue
    }
    if (table.numeric && /^-\d+$/.test(word)) {
      options.push({ name: word, kind: 'flag' })
      continue
    }
    index = readShort(argv, index, table, options)
  }
  return { options, operands }
}

function readLong(argv: readonly string[], index: number, table: OptionTable, out: ParsedOption[]): number {
  const word = argv[index] as string
  const equals = word.indexOf('=')
  const spelled = equals === -1 ? word : word.slice(0, equals)
  const name = longName(spelled, table)
  let kind: OptionKind | 'unknown' = name === undefined ? 'unknown' : (table.options[name] as OptionKind)
  if (equals !== -1) {
    // A flag given a value is not a use we know.
    if (kind === 'flag' || kind === 'exec-flag' || kind === 'write-flag') kind = 'unknown'
    out.push({ name: name ?? spelled, kind, value: word.slice(equals + 1), at: index, from: equals + 1 })
    return index
  }
  if (TAKES_VALUE.has(kind) && kind !== 'unknown') {
    const value = argv[index + 1]
    out.push({ name: name as string, kind, ...(value === undefined ? {} : { value, at: index + 1, from: 0 }) })
    return index + 1
  }
  out.push({ name: name ?? spelled, kind })
  return index
}

function readShort(argv: readonly string[], index: number, table: OptionTable, out: ParsedOption[]): number {
  const word = argv[index] as string
  for (let at = 1; at < word.length; at++) {
    const name = `-${word[at]}`
    const kind = table.options[name] ?? 'unknown'
    const rest = word.slice(at + 1)
    if (kind === 'unknown') {
      // How the rest of the word is read depends on an option we do not know.
      out.push({ name, kind })
      return index
    }
    if (TAKES_VALUE.has(kind)) {
      if (rest !== '') {
        out.push({ name, kind, value: rest, at: index, from: at + 1 })
        return index
      }
      const value = argv[index + 1]
      out.push({ name, kind, ...(value === undefined ? {} : { value, at: index + 1, from: 0 }) })
      return index + 1
    }
    if (kind === 'optional') {
      out.push({ name, kind, ...(rest === '' ? {} : { value: rest, at: index, from: at + 1 }) })
      return index
    }
    out.push({ name, kind })
  }
  return index
}

/** The table's long option `spelled` names: exact, or the one option it is a unique prefix of. */
function longName(spelled: string, table: OptionTable): string | undefined {
  if (Object.hasOwn(table.options, spelled)) return spelled
  if (table.abbreviations === false) return undefined
  const candidates = Object.keys(table.options).filter((name) => name.startsWith('--') && name.startsWith(spelled))
  return candidates.length === 1 ? candidates[0] : undefined
}

/** Builds an option table from lists: `table({ flag: ['-l', '--long'], value: ['-n'] })`. */
export function optionTable(lists: Partial<Record<OptionKind, readonly string[]>>, settings: Omit<OptionTable, 'options'> = {}): OptionTable {
  const options: Record<string, OptionKind> = {}
  for (const [kind, names] of Object.entries(lists) as Array<[OptionKind, readonly string[]]>) {
    for (const name of names) options[name] = kind
  }
  return { ...settings, options }
}
