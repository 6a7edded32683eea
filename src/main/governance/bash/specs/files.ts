import { factsFromOptions, hasOption, type CommandFacts, type Reading } from '../facts'
import { optionTable, parseArgs } from '../options'

/**
 * Read-only commands that read files: for each, every option it may take in a read-only run
 * (GNU coreutils spellings, which the BSD ones are a subset of for what is listed). An option not
 * listed makes the command "not read-only"; options that write or run a program are listed with
 * that kind so their paths are still seen.
 */

const paths = (table: Reading['table'], extra: Partial<Reading> = {}): Reading => ({ table, operands: 'paths', ...extra })
const text = (table: Reading['table']): Reading => ({ table, operands: 'none' })

const CAT = paths(
  optionTable({
    flag: ['-A', '-b', '-e', '-E', '-n', '-s', '-t', '-T', '-u', '-v', '--show-all', '--number-nonblank', '--show-ends', '--number', '--squeeze-blank', '--show-tabs', '--show-nonprinting'],
  }),
)

const HEAD = paths(
  optionTable(
    { flag: ['-q', '--quiet', '--silent', '-v', '--verbose', '-z', '--zero-terminated'], value: ['-c', '--bytes', '-n', '--lines'] },
    { numeric: true },
  ),
)

const TAIL = paths(
  optionTable(
    {
      flag: ['-F', '--retry', '-q', '--quiet', '--silent', '-v', '--verbose', '-z', '--zero-terminated', '-f'],
      optional: ['--follow'],
      value: ['-c', '--bytes', '-n', '--lines', '-s', '--sleep-interval', '--pid', '--max-unchanged-stats'],
    },
    { numeric: true },
  ),
)

const WC = paths(
  optionTable({
    flag: ['-c', '--bytes', '-m', '--chars', '-l', '--lines', '-L', '--max-line-length', '-w', '--words'],
    optional: ['--total'],
    list: ['--files0-from'],
  }),
)

const SORT = paths(
  optionTable({
    flag: [
      '-b', '--ignore-leading-blanks', '-d', '--dictionary-order', '-f', '--ignore-case', '-g', '--general-numeric-sort', '-i',
      '--ignore-nonprinting', '-M', '--month-sort', '-h', '--human-numeric-sort', '-n', '--numeric-sort', '-R', '--random-sort', '-r',
      '--reverse', '-V', '--version-sort', '-c', '-C', '-m', '--merge', '-s', '--stable', '-u', '--unique', '-z', '--zero-terminated', '--debug',
    ],
    optional: ['--check'],
    value: ['-k', '--key', '-t', '--field-separator', '-S', '--buffer-size', '--parallel', '--batch-size', '--sort'],
    read: ['--random-source'],
    list: ['--files0-from'],
    // Temporary files go to -T; the result to -o.
    write: ['-o', '--output', '-T', '--temporary-directory'],
    exec: ['--compress-program'],
  }),
)

const CUT = paths(
  optionTable({
    flag: ['-s', '--only-delimited', '-n', '-z', '--zero-terminated', '--complement'],
    value: ['-b', '--bytes', '-c', '--characters', '-f', '--fields', '-d', '--delimiter', '--output-delimiter'],
  }),
)

const NL = paths(
  optionTable({
    flag: ['-p', '--no-renumber'],
    value: [
      '-b', '--body-numbering', '-d', '--section-delimiter', '-f', '--footer-numbering', '-h', '--header-numbering', '-i', '--line-increment',
      '-l', '--join-blank-lines', '-n', '--number-format', '-s', '--number-separator', '-v', '--starting-line-number', '-w', '--number-width',
    ],
  }),
)

const TAC = paths(optionTable({ flag: ['-b', '--before', '-r', '--regex'], value: ['-s', '--separator'] }))

const FILE = paths(
  optionTable({
    flag: [
      '-b', '--brief', '-c', '--checking-printout', '-E', '-h', '--no-dereference', '-i', '--mime', '--mime-type', '--mime-encoding', '-k',
      '--keep-going', '-l', '--list', '-L', '--dereference', '-N', '--no-pad', '-n', '--no-buffer', '-p', '--preserve-date', '-r', '--raw',
      '-s', '--special-files', '-0', '--print0', '-d', '--debug', '--extension', '--apple', '-S', '--no-sandbox',
    ],
    value: ['-e', '--exclude', '--exclude-quiet', '-F', '--separator', '-P', '--parameter'],
    read: ['-m', '--magic-file'],
    list: ['-f', '--files-from'],
    // -C compiles magic files into the current folder; -z/-Z may start decompressors.
    'write-flag': ['-C', '--compile'],
    'exec-flag': ['-z', '--uncompress', '-Z', '--uncompress-noreport'],
  }),
)

const STAT = paths(
  optionTable({ flag: ['-L', '--dereference', '-f', '--file-system', '-t', '--terse'], optional: ['--cached'], value: ['-c', '--format', '--printf'] }),
)

const DU = paths(
  optionTable({
    flag: [
      '-0', '--null', '-a', '--all', '--apparent-size', '-b', '--bytes', '-c', '--total', '-D', '-H', '--dereference-args', '-h',
      '--human-readable', '--si', '-k', '-m', '-l', '--count-links', '-P', '--no-dereference', '-S', '--separate-dirs', '-s', '--summarize',
      '-x', '--one-file-system', '--inodes',
    ],
    optional: ['--time'],
    value: ['-B', '--block-size', '-d', '--max-depth', '-t', '--threshold', '--time-style', '--exclude'],
    read: ['-X', '--exclude-from'],
    list: ['--files0-from'],
  }),
  { recursive: true },
)

const LS_FLAGS = [
  '-a', '--all', '-A', '--almost-all', '--author', '-b', '--escape', '-B', '--ignore-backups', '-c', '-C', '-d', '--directory', '-D',
  '--dired', '-f', '-F', '--file-type', '--full-time', '-g', '--group-directories-first', '-G', '--no-group', '-h', '--human-readable',
  '--si', '-H', '--dereference-command-line', '--dereference-command-line-symlink-to-dir', '-i', '--inode', '-k', '--kibibytes', '-l', '-L',
  '--dereference', '-m', '-n', '--numeric-uid-gid', '-N', '--literal', '-o', '-p', '-q', '--hide-control-chars', '--show-control-chars',
  '-Q', '--quote-name', '-r', '--reverse', '-R', '--recursive', '-s', '--size', '-S', '-t', '-u', '-U', '-v', '-x', '-X', '-Z', '--context',
  '-1', '--zero',
]
const LS_TABLE = optionTable({
  flag: LS_FLAGS,
  optional: ['--color', '--colour', '--classify', '--hyperlink', '--indicator-style'],
  value: ['--block-size', '--format', '--hide', '-I', '--ignore', '--quoting-style', '--sort', '--time', '--time-style', '-T', '--tabsize', '-w', '--width'],
})

const TREE = paths(
  optionTable({
    flag: [
      '-a', '-d', '-f', '-x', '-q', '-N', '-Q', '-p', '-u', '-g', '-s', '-h', '--si', '--du', '-D', '-F', '-v', '-t', '-c', '-U', '-r', '--dirsfirst',
      '--filesfirst', '-n', '-C', '-A', '-S', '-i', '--noreport', '--prune', '--matchdirs', '--ignorecase', '--gitignore', '--inodes', '--device',
      '-J', '-X', '--metafirst',
    ],
    value: ['-L', '-P', '-I', '--timefmt', '--charset', '--filelimit', '--sort', '-T', '-H'],
    read: ['--infofile'],
    list: ['--fromfile'],
    // -o writes its listing; -R (with -H) writes an index page into every folder.
    write: ['-o'],
    'write-flag': ['-R'],
  }),
  { recursive: true },
)

const DIFF_TABLE = optionTable({
  flag: [
    '-q', '--brief', '-s', '--report-identical-files', '-i', '--ignore-case', '-E', '--ignore-tab-expansion', '-Z', '--ignore-trailing-space',
    '-b', '--ignore-space-change', '-w', '--ignore-all-space', '-B', '--ignore-blank-lines', '-a', '--text', '-r', '--recursive', '-N',
    '--new-file', '--unidirectional-new-file', '-t', '--expand-tabs', '-T', '--initial-tab', '-u', '-c', '-e', '--ed', '-n', '--rcs',
    '--normal', '-y', '--side-by-side', '-p', '--show-c-function', '-d', '--minimal', '--speed-large-files', '--strip-trailing-cr',
    '--suppress-common-lines', '--left-column', '--no-dereference', '--suppress-blank-empty', '--no-ignore-file-name-case',
    '--ignore-file-name-case',
  ],
  optional: ['--unified', '--context', '--color'],
  value: [
    '-U', '-C', '-W', '--width', '-x', '--exclude', '-I', '--ignore-matching-lines', '-F', '--show-function-line', '--label', '--tabsize',
    '--line-format', '--old-line-format', '--new-line-format', '--unchanged-line-format', '--old-group-format', '--new-group-format',
    '--changed-group-format', '--unchanged-group-format', '-D', '--ifdef', '--horizon-lines', '--palette', '-S', '--starting-file',
  ],
  read: ['-X', '--exclude-from', '--from-file', '--to-file'],
  // --paginate pipes the output through pr.
  exec: ['--diff-program'],
  'exec-flag': ['-l', '--paginate'],
})

const CMP = paths(optionTable({ flag: ['-b', '--print-bytes', '-l', '--verbose', '-s', '--quiet', '--silent'], value: ['-n', '--bytes', '-i', '--ignore-initial'] }))
const COMM = paths(optionTable({ flag: ['-1', '-2', '-3', '--check-order', '--nocheck-order', '--total', '-z', '--zero-terminated'], value: ['--output-delimiter'] }))
const REALPATH = paths(
  optionTable({
    flag: ['-e', '--canonicalize-existing', '-m', '--canonicalize-missing', '-L', '--logical', '-P', '--physical', '-q', '--quiet', '-s', '--strip', '--no-symlinks', '-z', '--zero'],
    read: ['--relative-to', '--relative-base'],
  }),
)
const READLINK = paths(
  optionTable({ flag: ['-f', '--canonicalize', '-e', '--canonicalize-existing', '-m', '--canonicalize-missing', '-n', '--no-newline', '-q', '--quiet', '-s', '--silent', '-v', '--verbose', '-z', '--zero'] }),
)
// -c reads the files a checksum list names: paths no word shows.
const CHECKSUM = paths(optionTable({ flag: ['-b', '--binary', '-t', '--text', '--tag', '--untagged', '-z', '--zero', '-w', '--warn', '--quiet', '--status', '--strict', '--ignore-missing'], value: ['-l', '--length', '-a', '--algorithm'] }))
const TR = text(optionTable({ flag: ['-c', '-C', '--complement', '-d', '--delete', '-s', '--squeeze-repeats', '-t', '--truncate-set1'] }))
const BASENAME = text(optionTable({ flag: ['-a', '--multiple', '-z', '--zero'], value: ['-s', '--suffix'] }))
const DIRNAME = text(optionTable({ flag: ['-z', '--zero'] }))
const WHICH = text(optionTable({ flag: ['-a', '-s'] }))
const PWD = text(optionTable({ flag: ['-L', '-P'] }))

/** Commands that read the current folder's whole tree when no file is named. */
export const TREE_READERS: Readonly<Record<string, Reading>> = { du: DU, tree: TREE }

/** Commands read by an option table alone. */
export const FILE_READERS: Readonly<Record<string, Reading>> = {
  cat: CAT, head: HEAD, tail: TAIL, wc: WC, sort: SORT, cut: CUT, nl: NL, tac: TAC, file: FILE, stat: STAT,
  cmp: CMP, comm: COMM, realpath: REALPATH, readlink: READLINK, md5sum: CHECKSUM, sha1sum: CHECKSUM, sha224sum: CHECKSUM, sha256sum: CHECKSUM,
  sha384sum: CHECKSUM, sha512sum: CHECKSUM, b2sum: CHECKSUM, cksum: CHECKSUM, tr: TR, basename: BASENAME, dirname: DIRNAME, which: WHICH, pwd: PWD,
}

/** `ls`: lists the current folder when no file is named; `-R` reads the whole tree. */
export function lsFacts(argv: readonly string[]): CommandFacts {
  const parsed = parseArgs(argv, 1, LS_TABLE)
  const recursive = hasOption(parsed, '-R', '--recursive')
  const facts = factsFromOptions(argv, { table: LS_TABLE, operands: 'paths', recursive }, parsed)
  return parsed.operands.length > 0 ? facts : { ...facts, impliedReads: [{ path: '.', recursive }] }
}

/** `du`, `tree`: the whole tree of each folder named, or of the current one. */
export function treeFacts(argv: readonly string[]): CommandFacts {
  const reading = TREE_READERS[argv[0] ?? ''] as Reading
  const parsed = parseArgs(argv, 1, reading.table)
  const facts = factsFromOptions(argv, reading, parsed)
  return parsed.operands.length > 0 ? facts : { ...facts, impliedReads: [{ path: '.', recursive: true }] }
}

/** `diff`: `-r` reads both trees. */
export function diffFacts(argv: readonly string[]): CommandFacts {
  const parsed = parseArgs(argv, 1, DIFF_TABLE)
  return factsFromOptions(argv, { table: DIFF_TABLE, operands: 'paths', recursive: hasOption(parsed, '-r', '--recursive') }, parsed)
}

/** `uniq [INPUT [OUTPUT]]`: the second operand is written. */
export function uniqFacts(argv: readonly string[]): CommandFacts {
  const table = optionTable({
    flag: ['-c', '--count', '-d', '--repeated', '-D', '-i', '--ignore-case', '-u', '--unique', '-z', '--zero-terminated'],
    optional: ['--all-repeated', '--group'],
    value: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'],
  })
  const parsed = parseArgs(argv, 1, table)
  const facts = factsFromOptions(argv, { table, operands: 'paths' }, parsed)
  const output = parsed.operands[1]
  if (output === undefined) return facts
  return { ...facts, readOnly: false, notReadOnly: 'uniq writes its second operand', paths: facts.paths.map((p) => (p.index === output ? { ...p, write: true } : p)) }
}

/** `echo`, `printf`, `true`, `false`: print their words. `printf -v NAME` sets a shell variable for later commands. */
export function printFacts(argv: readonly string[]): CommandFacts {
  if (argv[0] === 'printf' && argv.slice(1).some((word) => word === '-v' || /^-v./.test(word)))
    return { readOnly: false, notReadOnly: 'printf -v sets a shell variable for later commands', paths: [], operandsArePaths: false }
  return { readOnly: true, paths: [], operandsArePaths: false }
}

/** `command -v NAME` / `command -V NAME` describe a command instead of running it. */
export function commandLookupFacts(argv: readonly string[]): CommandFacts {
  const options = argv.slice(1).filter((word) => word.startsWith('-'))
  const ok = options.length > 0 && options.every((word) => /^-[pvV]+$/.test(word)) && options.some((word) => /[vV]/.test(word))
  return ok ? { readOnly: true, paths: [], operandsArePaths: false } : { readOnly: false, notReadOnly: 'command with unknown options', paths: [], operandsArePaths: false }
}
