import { factsFromOptions, hasOption, type CommandFacts } from '../facts'
import { optionTable, parseArgs } from '../options'

/**
 * The searching commands: grep, rg and find. Each reads a tree when asked to recurse, so the
 * facts mark recursive folders (a deny rule may hold a path somewhere below them), and the
 * implicit `.` a recursive search uses when no folder is named.
 */

const GREP_TABLE = optionTable(
  {
    flag: [
      '-E', '--extended-regexp', '-F', '--fixed-strings', '-G', '--basic-regexp', '-P', '--perl-regexp', '-i', '-y', '--ignore-case',
      '--no-ignore-case', '-v', '--invert-match', '-w', '--word-regexp', '-x', '--line-regexp', '-c', '--count', '-L', '--files-without-match',
      '-l', '--files-with-matches', '-o', '--only-matching', '-q', '--quiet', '--silent', '-s', '--no-messages', '-b', '--byte-offset', '-H',
      '--with-filename', '-h', '--no-filename', '-n', '--line-number', '-T', '--initial-tab', '-Z', '--null', '-z', '--null-data', '-a', '--text',
      '-I', '-r', '--recursive', '-U', '--binary', '--line-buffered', '--no-group-separator', '-V', '--version',
    ],
    optional: ['--color', '--colour'],
    value: [
      '-e', '--regexp', '-m', '--max-count', '-A', '--after-context', '-B', '--before-context', '-C', '--context', '-d', '--directories', '-D',
      '--devices', '--binary-files', '--include', '--exclude', '--exclude-dir', '--group-separator', '--label',
    ],
    read: ['-f', '--file', '--exclude-from'],
    // -R follows every symlink it meets, into folders outside the project: not listed, so it asks.
  },
  { numeric: true },
)

/** grep, egrep, fgrep: the pattern comes first unless -e/-f gave it; -r searches trees (`.` when no file is named). */
export function grepFacts(argv: readonly string[]): CommandFacts {
  const parsed = parseArgs(argv, 1, GREP_TABLE)
  const patternGiven = hasOption(parsed, '-e', '--regexp', '-f', '--file')
  const recursive = hasOption(parsed, '-r', '--recursive') || parsed.options.some((option) => (option.name === '-d' || option.name === '--directories') && option.value === 'recurse')
  const facts = factsFromOptions(argv, { table: GREP_TABLE, operands: 'paths', recursive, firstOperandIsText: !patternGiven }, parsed)
  const files = patternGiven ? parsed.operands : parsed.operands.slice(1)
  if (recursive && files.length === 0) facts.impliedReads = [{ path: '.', recursive: true }]
  return facts
}

const RG_TABLE = optionTable(
  {
    flag: [
      '-i', '--ignore-case', '-s', '--case-sensitive', '-S', '--smart-case', '-v', '--invert-match', '-w', '--word-regexp', '-x', '--line-regexp',
      '-F', '--fixed-strings', '-c', '--count', '--count-matches', '-l', '--files-with-matches', '--files-without-match', '--files', '-n',
      '--line-number', '-N', '--no-line-number', '-H', '--with-filename', '-I', '--no-filename', '-o', '--only-matching', '-q', '--quiet',
      '-u', '--unrestricted', '--hidden', '--no-hidden', '--no-ignore', '--ignore', '--no-ignore-vcs', '--no-ignore-dot', '--no-ignore-exclude',
      '--no-ignore-global', '--no-ignore-parent', '--no-ignore-files', '--no-ignore-messages', '--no-require-git', '-a', '--text', '--binary',
      '--no-binary', '-U', '--multiline', '--multiline-dotall', '-P', '--pcre2', '--no-pcre2', '--auto-hybrid-regex', '--heading', '--no-heading',
      '--column', '--no-column', '--vimgrep', '--json', '--no-json', '--stats', '--trim', '--no-trim', '-0', '--null', '--null-data', '-b',
      '--byte-offset', '--line-buffered', '--block-buffered', '-p', '--pretty', '--no-messages', '--messages', '--passthru', '--one-file-system',
      '--debug', '--trace', '--type-list', '--crlf', '--no-crlf', '--no-unicode', '--include-zero', '--no-config', '--sort-files',
      '--max-columns-preview', '--no-pcre2-unicode', '--glob-case-insensitive', '--mmap', '--no-mmap', '-V', '--version', '-h', '--help',
      '--pcre2-version', '--no-context-separator', '--ignore-file-case-insensitive', '--stop-on-nonmatch', '--no-filename',
    ],
    value: [
      '-e', '--regexp', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '--type-add', '--type-clear', '-m', '--max-count', '-A',
      '--after-context', '-B', '--before-context', '-C', '--context', '--context-separator', '--field-context-separator', '--field-match-separator',
      '-M', '--max-columns', '-d', '--max-depth', '--maxdepth', '--max-filesize', '-j', '--threads', '-E', '--encoding', '--engine', '--sort',
      '--sortr', '--color', '--colors', '--path-separator', '-r', '--replace', '--dfa-size-limit', '--regex-size-limit', '--hyperlink-format',
      '--generate', '--pre-glob',
    ],
    read: ['-f', '--file', '--ignore-file'],
    // --pre and --hostname-bin run a program; -z runs decompressors; -L/--follow leaves the project through symlinks (not listed: asks).
    exec: ['--pre', '--hostname-bin'],
    'exec-flag': ['-z', '--search-zip'],
  },
  { abbreviations: false },
)

/** rg: the pattern comes first unless -e/-f gave it (or --files lists); folders are always searched recursively. */
export function rgFacts(argv: readonly string[]): CommandFacts {
  const parsed = parseArgs(argv, 1, RG_TABLE)
  const patternGiven = hasOption(parsed, '-e', '--regexp', '-f', '--file') || hasOption(parsed, '--files', '--type-list', '--version', '-V', '--help', '-h')
  const facts = factsFromOptions(argv, { table: RG_TABLE, operands: 'paths', recursive: true, firstOperandIsText: !patternGiven }, parsed)
  const files = patternGiven ? parsed.operands : parsed.operands.slice(1)
  if (files.length === 0) facts.impliedReads = [{ path: '.', recursive: true }]
  return facts
}

/** find's primaries and what each does with its argument. */
const FIND_PRIMARIES: Readonly<Record<string, 'flag' | 'value' | 'read' | 'write' | 'write-flag' | 'exec'>> = {
  ...Object.fromEntries(
    [
      '-print', '-print0', '-ls', '-prune', '-quit', '-depth', '-d', '-mount', '-xdev', '-noleaf', '-daystart', '-empty', '-readable', '-writable',
      '-executable', '-nouser', '-nogroup', '-true', '-false', '-ignore_readdir_race', '-noignore_readdir_race', '-warn', '-nowarn', '-not', '!',
      '-a', '-and', '-o', '-or', '(', ')', ',', '-help', '--help', '-version', '--version',
    ].map((name) => [name, 'flag' as const]),
  ),
  ...Object.fromEntries(
    [
      '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype', '-size',
      '-perm', '-user', '-group', '-uid', '-gid', '-links', '-inum', '-mmin', '-mtime', '-amin', '-atime', '-cmin', '-ctime', '-used',
      '-maxdepth', '-mindepth', '-regextype', '-printf', '-context', '-fstype',
    ].map((name) => [name, 'value' as const]),
  ),
  '-newer': 'read', '-anewer': 'read', '-cnewer': 'read', '-samefile': 'read',
  '-fprint': 'write', '-fprint0': 'write', '-fls': 'write', '-fprintf': 'write',
  '-delete': 'write-flag',
  '-exec': 'exec', '-execdir': 'exec', '-ok': 'exec', '-okdir': 'exec',
}

/**
 * find [-H|-L|-P] [-D opts] [-Olevel] [start…] [expression]: the starting points are read
 * recursively (`.` when none is named); the expression's primaries come from an allowlist.
 * `-L`/`-H`/`-follow` follow symlinks out of the project, `-exec`/`-ok` run programs,
 * `-delete` and `-fprint…` write.
 */
export function findFacts(argv: readonly string[]): CommandFacts {
  const facts: CommandFacts = { readOnly: true, paths: [], operandsArePaths: true }
  const refuse = (why: string): void => {
    facts.readOnly = false
    facts.notReadOnly ??= why
  }
  let index = 1
  for (; index < argv.length; index++) {
    const word = argv[index] as string
    if (word === '-P') continue
    if (word === '-D') {
      index++
      continue
    }
    if (/^-O\d*$/.test(word)) continue
    if (word === '-H' || word === '-L') refuse(`find ${word} follows symlinks`)
    else break
  }
  const starts: number[] = []
  for (; index < argv.length; index++) {
    const word = argv[index] as string
    if (word.startsWith('-') || word === '(' || word === '!' || word === ')' || word === ',') break
    starts.push(index)
  }
  for (const start of starts) facts.paths.push({ index: start, from: 0, write: false, recursive: true })
  if (starts.length === 0) facts.impliedReads = [{ path: '.', recursive: true }]
  for (; index < argv.length; index++) {
    const word = argv[index] as string
    const kind = FIND_PRIMARIES[word] ?? (/^-newer[aBcmt][aBcmt]$/.test(word) ? 'read' : undefined)
    if (kind === undefined) {
      refuse(`find ${word} is not a primary known to be read-only`)
      continue
    }
    if (kind === 'exec') {
      facts.runsProgram ??= `find ${word}`
      refuse(`find ${word} runs a program`)
      // The command runs to `;` or `+`; its words are the inner command's (deny rules see them).
      while (index + 1 < argv.length && argv[index + 1] !== ';' && argv[index + 1] !== '+') index++
      index++
      continue
    }
    if (kind === 'write-flag') {
      refuse(`find ${word} deletes what it finds`)
      for (const start of starts) facts.paths.push({ index: start, from: 0, write: true, recursive: true })
      if (starts.length === 0) facts.impliedWrites = ['.']
      continue
    }
    if (kind === 'flag') continue
    const value = index + 1
    if (kind === 'read' || kind === 'write') facts.paths.push({ index: value, from: 0, write: kind === 'write' })
    if (kind === 'write') refuse(`find ${word} writes a file`)
    // -fprintf FILE FORMAT takes two words.
    index += word === '-fprintf' ? 2 : 1
  }
  return facts
}
