import { factsFromOptions, type CommandFacts } from '../facts'
import { optionTable, parseArgs, type OptionTable } from '../options'

/**
 * Commands that write, move or remove the files they name. None is read-only; what matters is
 * every file they touch, including through options (`cp -t DIR`, `tar -C DIR`, `rsync --log-file`),
 * whatever the value starts with, and options that run programs (`tar --to-command`, `rsync -e`).
 */

const TARGET = { write: ['-t', '--target-directory'], value: ['-S', '--suffix'], optional: ['--backup'] } as const

const TABLES: Readonly<Record<string, OptionTable>> = {
  cp: optionTable({ ...TARGET, optional: ['--backup', '--reflink', '--preserve', '--no-preserve', '--sparse', '--update'] }),
  mv: optionTable({ ...TARGET, optional: ['--backup', '--update'] }),
  ln: optionTable(TARGET),
  install: optionTable({ ...TARGET, value: ['-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group', '--strip-program'], optional: ['--backup'] }),
  tee: optionTable({ flag: ['-a', '--append', '-i', '--ignore-interrupts', '-p'], optional: ['--output-error'] }),
  truncate: optionTable({ value: ['-s', '--size'], read: ['-r', '--reference'] }),
  touch: optionTable({ value: ['-d', '--date', '-t', '--time'], read: ['-r', '--reference'] }),
  mkdir: optionTable({ value: ['-m', '--mode'], optional: ['--context'] }),
  chmod: optionTable({ read: ['--reference'] }),
  chown: optionTable({ read: ['--reference'], value: ['--from'] }),
  chgrp: optionTable({ read: ['--reference'] }),
  rm: optionTable({ optional: ['--interactive', '--preserve-root'] }),
  mknod: optionTable({ value: ['-m', '--mode'] }),
  mkfifo: optionTable({ value: ['-m', '--mode'] }),
  shred: optionTable({ value: ['-n', '--iterations', '-s', '--size'], read: ['--random-source'], optional: ['--remove'] }),
  patch: optionTable({
    value: ['-p', '--strip', '-B', '--prefix', '-Y', '--basename-prefix', '-z', '--suffix', '-D', '--ifdef', '-F', '--fuzz', '-V', '--version-control', '--reject-format', '--quoting-style'],
    optional: ['--merge', '--backup-if-mismatch'],
    read: ['-i', '--input'],
    write: ['-o', '--output', '-r', '--reject-file', '-d', '--directory'],
  }),
  tar: optionTable({
    value: ['-b', '--blocking-factor', '-H', '--format', '--owner', '--group', '--mode', '--mtime', '-V', '--label', '-K', '--starting-file', '-N', '--newer', '--after-date', '--exclude', '--transform', '--xform', '--strip-components', '--record-size', '--occurrence', '--tape-length', '-L'],
    read: ['-T', '--files-from', '-X', '--exclude-from'],
    write: ['-f', '--file', '-C', '--directory', '-g', '--listed-incremental', '--index-file'],
    exec: ['-I', '--use-compress-program', '--to-command', '--rsh-command', '-F', '--info-script', '--new-volume-script', '--checkpoint-action'],
  }),
  unzip: optionTable({ write: ['-d'], value: ['-x', '-P'] }),
  zip: optionTable({ write: ['-b', '--temp-path', '-O', '--output-file'], read: ['-@'], value: ['-P', '--password', '-x', '--exclude', '-i', '--include', '-n', '--suffixes', '-t', '-tt'], exec: ['-TT', '--unzip-command'] }),
  gzip: optionTable({ value: ['-S', '--suffix'] }),
  gunzip: optionTable({ value: ['-S', '--suffix'] }),
  rsync: optionTable({
    value: ['--exclude', '--include', '--filter', '-f', '--chmod', '--chown', '--usermap', '--groupmap', '--bwlimit', '--timeout', '--max-size', '--min-size', '--port', '--sockopts', '--out-format', '--log-file-format', '--suffix', '--iconv', '--info', '--debug', '--protocol', '--checksum-choice', '--compress-choice', '--compress-level'],
    read: ['--files-from', '--exclude-from', '--include-from', '--password-file', '--compare-dest', '--copy-dest', '--link-dest', '--read-batch'],
    write: ['--log-file', '-T', '--temp-dir', '--backup-dir', '--partial-dir', '--write-batch', '--only-write-batch'],
    exec: ['-e', '--rsh', '--rsync-path'],
  }),
}

/** Commands whose operands are files they write (or remove, or move). */
export const WRITE_COMMANDS: ReadonlySet<string> = new Set([
  ...Object.keys(TABLES), 'rmdir', 'unlink', 'dd',
])

/**
 * The facts of a write command: every operand is a file it writes (sources of cp/mv too: moving
 * or copying a protected file is treated like writing it), path-valued options are paths.
 */
export function writeFacts(argv: readonly string[]): CommandFacts {
  const name = argv[0] ?? ''
  if (name === 'dd') return ddFacts(argv)
  const table = TABLES[name] ?? { options: {}, abbreviations: false }
  const parsed = parseArgs(argv, 1, withUnknownFlags(argv, table))
  const facts = factsFromOptions(argv, { table, operands: 'none' }, parsed)
  // chmod/chown/chgrp take a mode or owner first (unless --reference gave it); mknod takes type and numbers after the name.
  let operands = parsed.operands
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && !parsed.options.some((option) => option.name === '--reference')) operands = operands.slice(1)
  if (name === 'mknod') operands = operands.slice(0, 1)
  return {
    ...facts,
    readOnly: false,
    notReadOnly: `${name} changes files`,
    paths: [...facts.paths, ...operands.map((index) => ({ index, from: 0, write: true }))],
    operandsArePaths: true,
  }
}

/**
 * Options a write command's table does not list are read as flags (they never make it
 * read-only anyway); listing them keeps an unknown `-x` from swallowing the rest of its word.
 */
function withUnknownFlags(argv: readonly string[], table: OptionTable): OptionTable {
  const options = { ...table.options }
  for (const word of argv.slice(1)) {
    if (!word.startsWith('-') || word === '-' || word === '--') continue
    if (word.startsWith('--')) {
      const name = word.split('=')[0] as string
      if (!Object.hasOwn(options, name) && !Object.keys(options).some((known) => known.startsWith(name))) options[name] = word.includes('=') ? 'optional' : 'flag'
      continue
    }
    for (const letter of word.slice(1)) {
      const name = `-${letter}`
      if (Object.hasOwn(options, name)) break
      options[name] = 'flag'
    }
  }
  return { ...table, options }
}

/** dd: `if=FILE` is read, `of=FILE` written; both whatever they start with. */
function ddFacts(argv: readonly string[]): CommandFacts {
  const facts: CommandFacts = { readOnly: false, notReadOnly: 'dd writes files', paths: [], operandsArePaths: false }
  argv.forEach((word, index) => {
    const match = /^(if|of)=/.exec(word)
    if (match) facts.paths.push({ index, from: 3, write: match[1] === 'of' })
  })
  return facts
}
