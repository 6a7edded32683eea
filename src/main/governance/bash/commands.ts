/**
 * Knowledge about individual commands: wrappers that are stripped before rule matching, exec
 * wrappers that no prefix rule may cover, interpreters, write-capable commands, and Claude Code's
 * built-in read-only set.
 */

/** Wrappers stripped before matching any rule (REFERENCE 2.1), with the options each takes. */
const SAFE_WRAPPERS: Record<string, { valued: string[]; positional: number }> = {
  timeout: { valued: ['-k', '-s', '--kill-after', '--signal'], positional: 1 },
  time: { valued: [], positional: 0 },
  nice: { valued: ['-n', '--adjustment'], positional: 0 },
  nohup: { valued: [], positional: 0 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], positional: 0 },
  command: { valued: [], positional: 0 },
  builtin: { valued: [], positional: 0 },
  noglob: { valued: [], positional: 0 },
}

/** Exec wrappers: never covered by a prefix rule; deny/ask rules still see the command inside. */
const EXEC_WRAPPERS: Record<string, { valued: string[]; positional: number }> = {
  watch: { valued: ['-n', '--interval', '-d', '-q', '--equexit'], positional: 0 },
  setsid: { valued: [], positional: 0 },
  ionice: { valued: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'], positional: 0 },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positional: 1 },
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], positional: 0 },
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '--user', '--group'], positional: 0 },
  doas: { valued: ['-u', '-C'], positional: 0 },
  exec: { valued: ['-a'], positional: 0 },
  xargs: { valued: ['-I', '-i', '-n', '-P', '-L', '-l', '-d', '-E', '-e', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace'], positional: 0 },
  nohup: { valued: [], positional: 0 },
  chroot: { valued: [], positional: 1 },
  unshare: { valued: [], positional: 0 },
  strace: { valued: ['-o', '-e', '-p', '-s'], positional: 0 },
  ltrace: { valued: ['-o', '-e', '-p'], positional: 0 },
  caffeinate: { valued: [], positional: 0 },
  script: { valued: [], positional: 0 },
}

/** Removes one wrapper from the front of argv, or returns undefined when argv[0] is none of `table`. */
function stripOne(argv: string[], table: Record<string, { valued: string[]; positional: number }>): string[] | undefined {
  const name = argv[0]
  if (name === undefined) return undefined
  const spec = table[name]
  if (!spec) return undefined
  let i = 1
  let positional = spec.positional
  while (i < argv.length) {
    const a = argv[i] as string
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      i++
      continue
    }
    if (a === '--') {
      i++
      break
    }
    if (a.startsWith('-') && a !== '-') {
      if (spec.valued.includes(a)) i++
      i++
      continue
    }
    if (positional > 0) {
      positional--
      i++
      continue
    }
    break
  }
  return i < argv.length ? argv.slice(i) : undefined
}

export interface StrippedCommand {
  /** The command as allow rules see it (safe wrappers removed). */
  argv: string[]
  /** An exec wrapper (or `xargs` with flags) sits in front: no allow rule may cover it. */
  execWrapper: boolean
}

/** Strips the wrappers allow rules look through: timeout time nice nohup stdbuf command builtin noglob, bare xargs. */
export function stripSafeWrappers(argv: string[]): StrippedCommand {
  let cur = argv
  for (let guard = 0; guard < 16; guard++) {
    const name = cur[0]
    if (name === 'command' && (cur[1] === '-v' || cur[1] === '-V')) break
    if (name === 'xargs') {
      const next = cur[1]
      if (next === undefined || next.startsWith('-')) return { argv: cur, execWrapper: true }
      cur = cur.slice(1)
      continue
    }
    if (name !== undefined && EXEC_WRAPPERS[name] && !SAFE_WRAPPERS[name]) return { argv: cur, execWrapper: true }
    const next = stripOne(cur, SAFE_WRAPPERS)
    if (!next) break
    cur = next
  }
  return { argv: cur, execWrapper: false }
}

/** Every form deny/ask rules are checked against: the command and each layer of wrappers peeled off. */
export function denyCandidates(argv: string[]): string[][] {
  const out: string[][] = [argv]
  let cur = argv
  for (let guard = 0; guard < 16; guard++) {
    const next = stripOne(cur, SAFE_WRAPPERS) ?? stripOne(cur, EXEC_WRAPPERS)
    if (!next) break
    out.push(next)
    cur = next
  }
  // `find ... -exec cmd args ;` runs cmd: deny rules must see it.
  for (const form of [...out]) {
    if (form[0] !== 'find') continue
    for (let i = 1; i < form.length; i++) {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(form[i] as string)) {
        const end = form.findIndex((a, j) => j > i && (a === ';' || a === '+'))
        const inner = form.slice(i + 1, end === -1 ? undefined : end).filter((a) => a !== '{}')
        if (inner.length > 0) out.push(inner)
      }
    }
  }
  return out
}

/** Variables a leading assignment may set while an allow rule still matches (they don't change what runs). */
export const SAFE_ENV_VARS = new Set([
  'CI', 'DEBUG', 'NODE_ENV', 'RUST_LOG', 'RUST_BACKTRACE', 'NO_COLOR', 'FORCE_COLOR', 'TERM', 'TZ', 'LANG', 'LC_ALL',
  'LC_CTYPE', 'COLUMNS', 'LINES', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'GOOS', 'GOARCH', 'CGO_ENABLED',
  'VERBOSE', 'LOG_LEVEL', 'NPM_CONFIG_LOGLEVEL', 'HUSKY', 'TSC_COMPILE_ON_ERROR', 'JEST_WORKER_ID',
])

/** Programs that run code they read from stdin, `-c`, a heredoc or a herestring. */
export const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun',
  'perl', 'ruby', 'php', 'lua', 'tclsh', 'osascript', 'pwsh', 'powershell', 'awk', 'gawk', 'mawk', 'sed', 'jq', 'sqlite3', 'psql', 'mysql',
])

/** Shells whose `-c <string>` we analyse recursively. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh'])

/** Commands whose path arguments are written (or moved/removed). */
export const WRITE_COMMANDS = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'touch', 'mkdir', 'ln', 'chmod', 'chown', 'chgrp', 'tee', 'truncate', 'install', 'rsync', 'dd',
  'shred', 'unlink', 'mkfifo', 'mknod', 'patch', 'tar', 'unzip', 'zip', 'gzip', 'gunzip',
])

/** Commands acceptEdits mode allows when every path stays inside the project. */
export const ACCEPT_EDITS_COMMANDS = new Set(['mkdir', 'touch', 'mv', 'cp'])

/** Claude Code's built-in read-only set (no prompt when the parse is clean and paths stay inside). */
export const READ_ONLY_COMMANDS = new Set(['ls', 'cat', 'echo', 'pwd', 'head', 'tail', 'grep', 'rg', 'find', 'wc', 'which', 'diff', 'stat', 'du', 'cd', 'git', 'true', 'false', 'printf'])

/** Commands whose arguments are not paths. */
export const NON_PATH_ARGS = new Set(['echo', 'printf', 'which', 'pwd', 'true', 'false'])

const FIND_UNSAFE = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'])

const GIT_READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'describe', 'shortlog', 'cat-file', 'grep',
  'merge-base', 'name-rev', 'for-each-ref', 'rev-list', 'count-objects', 'whatchanged', 'cherry', 'version', 'help',
])

/**
 * True when argv (wrappers already stripped) is in the read-only set with safe options.
 * Paths are checked separately (they must stay inside the project).
 */
export function isReadOnlyCommand(argv: string[]): boolean {
  const [name, ...args] = argv
  if (name === undefined || !READ_ONLY_COMMANDS.has(name)) return false
  if (name === 'find') return !args.some((a) => FIND_UNSAFE.has(a))
  if (name === 'rg') return !args.some((a) => a === '--pre' || a.startsWith('--pre='))
  if (name === 'git') return isReadOnlyGit(args)
  return true
}

function isReadOnlyGit(args: string[]): boolean {
  const sub = args[0]
  // Global options such as -c (core.pager, core.fsmonitor run programs), -C and --git-dir change what runs where.
  if (sub === undefined || sub.startsWith('-')) return false
  const rest = args.slice(1)
  if (rest.some((a) => a.startsWith('--output') || a === '--ext-diff' || a === '-o')) return false
  const positional = rest.filter((a) => !a.startsWith('-'))
  switch (sub) {
    case 'branch':
      return positional.length === 0 && rest.every((a) => ['-a', '-r', '-v', '-vv', '--list', '-l', '--show-current', '--all', '--remotes', '--merged', '--no-merged', '--contains'].includes(a))
    case 'tag':
      return positional.length === 0 && rest.every((a) => a === '-l' || a === '--list' || a === '-n')
    case 'remote':
      return rest.length === 0 || (rest.length === 1 && (rest[0] === '-v' || rest[0] === '--verbose')) || rest[0] === 'get-url' || (rest[0] === 'show' && rest.length <= 2)
    case 'stash':
      return rest[0] === 'list' || rest[0] === 'show'
    case 'config':
      return rest.length > 0 && rest.every((a) => a === '--list' || a === '-l' || a === '--get' || a === '--get-all' || a === '--global' || a === '--local' || !a.startsWith('-')) && (rest.includes('--list') || rest.includes('-l') || rest.includes('--get') || rest.includes('--get-all'))
    case 'reflog':
      return positional.length === 0 || positional[0] === 'show'
    default:
      return GIT_READ_ONLY.has(sub)
  }
}

/** Index of the grep/rg pattern argument (not a path), or -1 when the pattern comes from -e/-f. */
export function patternArgIndex(argv: string[]): number {
  if (argv[0] !== 'grep' && argv[0] !== 'rg' && argv[0] !== 'egrep' && argv[0] !== 'fgrep') return -1
  if (argv.some((a) => a === '-e' || a === '-f' || a.startsWith('--regexp') || a.startsWith('--file'))) return -1
  const VALUED = new Set(['-A', '-B', '-C', '-m', '-g', '-t', '-T', '-M', '-j', '--type', '--glob', '--max-count', '-d', '-D'])
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1
    if (a.startsWith('-')) {
      if (VALUED.has(a)) i++
      continue
    }
    return i
  }
  return -1
}
