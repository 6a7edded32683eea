import { factsFromOptions, hasOption, unknownCommand, type CommandFacts } from '../facts'
import { optionTable, parseArgs } from '../options'
import { commandLookupFacts, diffFacts, FILE_READERS, lsFacts, printFacts, treeFacts, uniqFacts } from './files'
import { gitFacts } from './git'
import { findFacts, grepFacts, rgFacts } from './search'
import { unsafeSedScript } from './sed-script'
import { WRITE_COMMANDS, writeFacts } from './writes'

/**
 * What a command does, by its name and words (wrappers already taken off): the one place that
 * knows commands. A command that is not described here is not read-only and its words are not
 * taken for paths.
 */
export function describeCommand(argv: readonly string[]): CommandFacts {
  const name = argv[0] ?? ''
  const reading = Object.hasOwn(FILE_READERS, name) ? FILE_READERS[name] : undefined
  if (reading) return factsFromOptions(argv, reading)
  switch (name) {
    case 'ls':
      return lsFacts(argv)
    case 'du':
    case 'tree':
      return treeFacts(argv)
    case 'diff':
      return diffFacts(argv)
    case 'uniq':
      return uniqFacts(argv)
    case 'echo':
    case 'printf':
    case 'true':
    case 'false':
    case ':':
      return printFacts(argv)
    case 'command':
      return commandLookupFacts(argv)
    case 'cd':
      return cdFacts(argv)
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return grepFacts(argv)
    case 'rg':
      return rgFacts(argv)
    case 'find':
      return findFacts(argv)
    case 'sed':
      return sedFacts(argv)
    case 'git':
      return gitFacts(argv)
  }
  if (WRITE_COMMANDS.has(name)) return writeFacts(argv)
  if (Object.hasOwn(PATH_READERS, name)) return readerFacts(argv, PATH_READERS[name] as number)
  return unknownCommand(name)
}

/** `cd [-L|-P|-e|-@] [DIR]`: the analysis follows the move itself; DIR is read. */
function cdFacts(argv: readonly string[]): CommandFacts {
  const table = optionTable({ flag: ['-L', '-P', '-e', '-@'] }, { abbreviations: false })
  const parsed = parseArgs(argv, 1, table)
  const facts = factsFromOptions(argv, { table, operands: 'paths' }, parsed)
  // `cd -` goes to OLDPWD: not a path the words show.
  return { ...facts, paths: facts.paths.filter((path) => argv[path.index] !== '-') }
}

const SED_TABLE = optionTable({
  flag: [
    '-n', '--quiet', '--silent', '-E', '-r', '--regexp-extended', '-s', '--separate', '-z', '--null-data', '-u', '--unbuffered', '--posix',
    '--debug', '--sandbox', '--follow-symlinks', '-b', '--binary',
  ],
  value: ['-e', '--expression', '-l', '--line-length'],
  read: ['-f', '--file'],
  optional: ['-i', '--in-place'],
})

/**
 * sed: read-only when it edits nothing in place and its script can only print (`--sandbox`
 * makes GNU sed refuse `e`, `w` and `r` itself). With `-i` every file operand is written.
 */
function sedFacts(argv: readonly string[]): CommandFacts {
  const parsed = parseArgs(argv, 1, SED_TABLE)
  const scripts = parsed.options.filter((option) => option.name === '-e' || option.name === '--expression').map((option) => option.value ?? '')
  const fromFile = hasOption(parsed, '-f', '--file')
  const scriptInOperand = scripts.length === 0 && !fromFile
  const facts = factsFromOptions(argv, { table: SED_TABLE, operands: 'paths', firstOperandIsText: scriptInOperand }, parsed)
  if (scriptInOperand && parsed.operands[0] !== undefined) scripts.push(argv[parsed.operands[0]] as string)
  if (hasOption(parsed, '-i', '--in-place')) {
    return { ...facts, readOnly: false, notReadOnly: 'sed -i edits files in place', paths: facts.paths.map((path) => (parsed.operands.includes(path.index) ? { ...path, write: true } : path)) }
  }
  if (hasOption(parsed, '--sandbox') || !facts.readOnly) return facts
  if (fromFile) return { ...facts, readOnly: false, notReadOnly: 'sed -f runs a script the command does not show' }
  for (const script of scripts) {
    const why = unsafeSedScript(script)
    if (why) return { ...facts, readOnly: false, notReadOnly: why, ...(/runs/.test(why) ? { runsProgram: `sed: ${why}` } : {}) }
  }
  return facts
}

/** Commands that read the files they name but are not read-only (pagers, interpreters of a program); value: how many leading operands are a program. */
const PATH_READERS: Readonly<Record<string, number>> = {
  awk: 1, gawk: 1, mawk: 1, jq: 1, less: 0, more: 0, od: 0, xxd: 0, hexdump: 0, strings: 0, base64: 0, bat: 0,
}

/** Every operand after the program is a file read (options are not trusted, so never read-only). */
function readerFacts(argv: readonly string[], programs: number): CommandFacts {
  const name = argv[0] ?? ''
  const fromFile = argv.some((word) => word === '-f' || word.startsWith('--from-file'))
  const operands = argv.map((word, index) => ({ word, index })).filter(({ word, index }) => index > 0 && (!word.startsWith('-') || word === '-'))
  const skip = fromFile ? 0 : programs
  return {
    ...unknownCommand(name),
    notReadOnly: `${name} is not in the read-only set`,
    paths: operands.slice(skip).filter(({ word }) => word !== '-').map(({ index }) => ({ index, from: 0, write: false })),
    operandsArePaths: true,
  }
}
