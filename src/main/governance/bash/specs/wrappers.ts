import { factsFromOptions, type CommandFacts, type PathArgument } from '../facts'
import { optionTable, parseArgs, type OptionTable } from '../options'

/**
 * Commands that run another command: their own options are analysed like any command's
 * (`time -o FILE` writes FILE, `nohup` writes `nohup.out`, `env -C DIR` moves the wrapped command,
 * `xargs` hands it arguments read at run time), and then the wrapped command is.
 */

/** One wrapper taken off the front of a command. */
export interface WrapperLayer {
  name: string
  /** Allow rules look through it (Claude Code's list: timeout time nice nohup stdbuf command builtin noglob, bare xargs). */
  transparent: boolean
  /** What the wrapper's own words do (paths it writes, programs it runs, whether it is read-only). */
  facts: CommandFacts
  /** Index (in the argv given) where the wrapped command starts; undefined when none follows. */
  inner?: number
  /** The wrapped command runs in this folder (`env -C DIR`). */
  cwd?: PathArgument
  /** The wrapped command gets arguments the analysis cannot see (xargs reads them from stdin). */
  argumentsFromStdin?: boolean
  /** A command line the wrapper runs with a shell or splits itself (`env -S`, `watch`, `flock -c`): analysed as nested code. */
  script?: string
  /** The script exists but is only known at run time. */
  scriptUnknown?: boolean
}

/** How a wrapper reads its words before the wrapped command. */
interface WrapperSpec {
  table: OptionTable
  transparent: boolean
  /** Operands before the wrapped command (timeout's duration, flock's lock file, chroot's root). */
  leading?: number
  /** Leading operands that are files it writes (flock's lock file) or reads. */
  leadingPaths?: 'write' | 'read'
  /** Read-only when its options are (and the wrapped command is). */
  readOnly: boolean
  /** Files it writes that no word names, relative to the cwd. */
  impliedWrites?: string[]
  /** Options whose value is a command line run by a shell. */
  scriptOptions?: string[]
  /** All the words after the options are joined into one command line run with `sh -c` (watch). */
  joinsWords?: boolean
  /** Options that move the wrapped command to another folder. */
  cwdOptions?: string[]
}

const strict = { permute: false } as const
/** A wrapper that is never read-only: only which options take a value matters (to find the wrapped command). */
const loose = (valued: string[], special: OptionTable['options'] = {}): OptionTable => ({
  options: { ...Object.fromEntries(valued.map((name) => [name, 'value' as const])), ...special },
  permute: false,
  abbreviations: false,
})

const SPECS: Readonly<Record<string, WrapperSpec>> = {
  timeout: {
    table: optionTable({ flag: ['--foreground', '--preserve-status', '-v', '--verbose'], value: ['-k', '--kill-after', '-s', '--signal'] }, strict),
    transparent: true, leading: 1, readOnly: true,
  },
  time: {
    table: optionTable({ flag: ['-p', '--portability', '-a', '--append', '-v', '--verbose', '-q', '--quiet'], value: ['-f', '--format'], write: ['-o', '--output'] }, strict),
    transparent: true, readOnly: true,
  },
  nice: { table: optionTable({ value: ['-n', '--adjustment'] }, { ...strict, numeric: true }), transparent: true, readOnly: true },
  // With its output on a terminal (the Bash tool's PTY), nohup appends to ./nohup.out.
  nohup: { table: optionTable({}, strict), transparent: true, readOnly: false, impliedWrites: ['nohup.out'] },
  stdbuf: { table: optionTable({ value: ['-i', '--input', '-o', '--output', '-e', '--error'] }, strict), transparent: true, readOnly: true },
  command: { table: optionTable({ flag: ['-p'] }, strict), transparent: true, readOnly: true },
  builtin: { table: optionTable({}, strict), transparent: true, readOnly: true },
  noglob: { table: optionTable({}, strict), transparent: true, readOnly: true },
  env: {
    cwdOptions: ['-C', '--chdir'],
    table: optionTable(
      {
        flag: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug', '--list-signal-handling'],
        optional: ['--block-signal', '--default-signal', '--ignore-signal'],
        value: ['-u', '--unset', '-S', '--split-string', '-C', '--chdir', '-P'],
      },
      strict,
    ),
    transparent: false, readOnly: true, scriptOptions: ['-S', '--split-string'],
  },
  xargs: {
    table: optionTable(
      {
        flag: ['-0', '--null', '-p', '--interactive', '-r', '--no-run-if-empty', '-t', '--verbose', '-x', '--exit', '-o', '--open-tty', '--show-limits'],
        optional: ['-e', '--eof', '-i', '--replace', '-l'],
        value: ['-d', '--delimiter', '-E', '-I', '-L', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
        read: ['-a', '--arg-file'],
      },
      strict,
    ),
    transparent: false, readOnly: true,
  },
  watch: { table: loose(['-n', '--interval', '-d', '--differences', '-q', '--equexit', '-s', '--shell']), transparent: false, readOnly: false, joinsWords: true },
  setsid: { table: optionTable({ flag: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'] }, strict), transparent: false, readOnly: false },
  ionice: { table: loose(['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid']), transparent: false, readOnly: false },
  flock: {
    table: loose(['-w', '--timeout', '--wait', '-E', '--conflict-exit-code'], { '-c': 'exec', '--command': 'exec' }),
    transparent: false, leading: 1, leadingPaths: 'write', readOnly: false, scriptOptions: ['-c', '--command'],
  },
  sudo: {
    table: loose(['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout']),
    transparent: false, readOnly: false, cwdOptions: ['-D', '--chdir'],
  },
  doas: { table: loose(['-u', '-C']), transparent: false, readOnly: false },
  exec: { table: loose(['-a']), transparent: false, readOnly: false },
  chroot: { table: loose(['--userspec', '--groups']), transparent: false, leading: 1, leadingPaths: 'read', readOnly: false },
  unshare: { table: loose(['--map-user', '--map-group', '--setuid', '--setgid', '-R', '--root', '-w', '--wd', '-S', '-G']), transparent: false, readOnly: false, cwdOptions: ['-w', '--wd'] },
  strace: { table: loose(['-e', '-p', '-s', '-P', '-a', '-I', '-b', '-X', '-E', '-u'], { '-o': 'write', '--output': 'write' }), transparent: false, readOnly: false },
  ltrace: { table: loose(['-e', '-p', '-s', '-a', '-n', '-u', '-F', '-A', '-D'], { '-o': 'write', '--output': 'write' }), transparent: false, readOnly: false },
  caffeinate: { table: loose(['-t', '-w']), transparent: false, readOnly: false },
}

/** A word that assigns a variable (`NAME=value`), as `env` reads its operands. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * Takes the wrapper at the front of `argv` off, or returns undefined when `argv[0]` is not one.
 * `command -v`, `command -V` and bare `env` are commands of their own, not wrappers.
 */
export function unwrap(argv: readonly string[], safeVariables: ReadonlySet<string>): WrapperLayer | undefined {
  const name = argv[0] ?? ''
  if (name === 'script') return scriptLayer(argv)
  const spec = Object.hasOwn(SPECS, name) ? (SPECS[name] as WrapperSpec) : undefined
  if (!spec) return undefined
  if (name === 'command' && argv.slice(1).some((word) => /^-[pvV]*[vV]/.test(word))) return undefined
  const parsed = parseArgs(argv, 1, spec.table)
  const facts = factsFromOptions(argv, { table: spec.table, operands: 'none' }, { options: parsed.options, operands: [] })
  if (!spec.readOnly) {
    facts.readOnly = false
    facts.notReadOnly ??= `${name} runs a command in a way that is never read-only`
  }
  if (spec.impliedWrites) facts.impliedWrites = spec.impliedWrites
  let next = parsed.operands[0]
  const layer: WrapperLayer = { name, transparent: spec.transparent, facts }
  for (let skipped = 0; next !== undefined && skipped < (spec.leading ?? 0); skipped++) {
    if (spec.leadingPaths) facts.paths.push({ index: next, from: 0, write: spec.leadingPaths === 'write' })
    next = next + 1 < argv.length ? next + 1 : undefined
  }
  // `flock FILE -c COMMAND`: flock reads -c after its lock file as well.
  if (name === 'flock' && next !== undefined && (argv[next] === '-c' || argv[next] === '--command')) {
    if (argv[next + 1] === undefined) layer.scriptUnknown = true
    else layer.script = argv[next + 1]
    return layer
  }
  if (name === 'env') next = envOperands(argv, next, facts, safeVariables)
  const chdir = parsed.options.find((option) => spec.cwdOptions?.includes(option.name))
  if (chdir?.at !== undefined) layer.cwd = { index: chdir.at, from: chdir.from ?? 0, write: false }
  if (name === 'xargs') layer.argumentsFromStdin = true
  for (const option of parsed.options) {
    if (!spec.scriptOptions?.includes(option.name)) continue
    if (option.value === undefined) layer.scriptUnknown = true
    else layer.script = option.value
  }
  if (spec.joinsWords && next !== undefined) {
    layer.script = argv.slice(next).join(' ')
    return layer
  }
  if (next !== undefined) layer.inner = next
  else if (name === 'xargs') layer.inner = argv.length
  else if (name === 'env' && layer.script === undefined) {
    // Bare `env` prints the environment, credentials included.
    facts.readOnly = false
    facts.notReadOnly = 'env without a command prints the whole environment'
  }
  return layer
}

/** env's `NAME=value` operands: assignments of variables that change what runs mean "not read-only". */
function envOperands(argv: readonly string[], first: number | undefined, facts: CommandFacts, safeVariables: ReadonlySet<string>): number | undefined {
  let index = first
  while (index !== undefined && index < argv.length && ASSIGNMENT.test(argv[index] as string)) {
    const variable = (argv[index] as string).split('=')[0] as string
    if (!safeVariables.has(variable)) {
      facts.readOnly = false
      facts.notReadOnly ??= `env sets ${variable}, which can change what runs`
    }
    index++
  }
  return index !== undefined && index < argv.length ? index : undefined
}

/** `script [-c CMD] [FILE]`: records a session into FILE (./typescript by default) and runs CMD or a shell. */
function scriptLayer(argv: readonly string[]): WrapperLayer {
  const table = optionTable({ flag: ['-a', '--append', '-e', '--return', '-f', '--flush', '-q', '--quiet', '-E', '--echo'], value: ['-c', '--command', '-t', '-m', '--logging-format'], write: ['-O', '--log-out', '-I', '--log-in', '-B', '--log-io', '-T', '--log-timing'] })
  const parsed = parseArgs(argv, 1, table)
  const facts = factsFromOptions(argv, { table, operands: 'none' }, { options: parsed.options, operands: [] })
  facts.readOnly = false
  facts.notReadOnly = 'script records the session into a file'
  const file = parsed.operands[0]
  if (file !== undefined) facts.paths.push({ index: file, from: 0, write: true })
  else if (!parsed.options.some((option) => ['-O', '--log-out', '-B', '--log-io'].includes(option.name))) facts.impliedWrites = ['typescript']
  const command = parsed.options.find((option) => option.name === '-c' || option.name === '--command')
  return { name: 'script', transparent: false, facts, ...(command ? (command.value === undefined ? { scriptUnknown: true } : { script: command.value }) : {}) }
}

/** Wrapper names, for callers that only need to know whether a word is one. */
export const WRAPPER_NAMES: ReadonlySet<string> = new Set([...Object.keys(SPECS), 'script'])
