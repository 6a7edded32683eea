import { factsFromOptions, hasOption, unknownCommand, type CommandFacts } from '../facts'
import { optionTable, parseArgs, type OptionKind, type OptionTable } from '../options'

/**
 * git: global options, then a subcommand, each with its own option allowlist. The read-only
 * verdict needs every option on the list: `-c`/`--config-env` can set `core.pager`,
 * `core.fsmonitor` or `diff.external` (programs), `-C`/`--git-dir`/`--work-tree` move it elsewhere,
 * `--output` writes, `--ext-diff`/`--textconv` run drivers, `grep -O` opens files in a program.
 * Subcommands that rewrite git's own configuration (config, submodule, worktree, init) are
 * recorded as writes to `.git/config`, a protected path, in every mode.
 */

const list = (kind: OptionKind, names: readonly string[]): Record<string, OptionKind> => Object.fromEntries(names.map((name) => [name, kind]))

/** Global options allowed before the subcommand in a read-only run. */
const GLOBAL = optionTable(
  {
    flag: ['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-replace-objects', '--version'],
    // Not listed, so never read-only: -c, --config-env, -C, --git-dir, --work-tree, --namespace, --exec-path, -p/--paginate, --help.
  },
  { permute: false },
)

/** What the diff and log family print, and how. */
const DIFF_OPTIONS = {
  ...list('flag', [
    '-p', '-u', '--patch', '-s', '--no-patch', '--raw', '--patch-with-raw', '--patch-with-stat', '--stat', '--compact-summary', '--numstat',
    '--shortstat', '--summary', '--name-only', '--name-status', '--full-index', '--binary', '--no-ext-diff', '--no-textconv', '--check',
    '--exit-code', '--quiet', '--minimal', '--patience', '--histogram', '-R', '-a', '--text', '-w', '--ignore-all-space', '-b',
    '--ignore-space-change', '--ignore-space-at-eol', '--ignore-cr-at-eol', '--ignore-blank-lines', '-W', '--function-context', '--no-color',
    '--no-renames', '--rename-empty', '--no-rename-empty', '--cached', '--staged', '--merge-base', '--no-index', '-z', '--no-prefix',
    '--default-prefix', '--indent-heuristic', '--no-indent-heuristic', '--irreversible-delete', '-D', '--pickaxe-all', '--pickaxe-regex',
    '--find-copies-harder', '--cumulative', '--ita-invisible-in-index', '--ita-visible-in-index', '-r', '-t', '--root', '-m', '-c', '--cc',
    '--combined-all-paths', '--no-commit-id', '--always', '--no-relative', '--color-moved-ws', '--no-color-moved', '--no-color-moved-ws',
    '--ignore-matching-lines', '--no-diff-merges', '--remerge-diff', '--dd',
  ]),
  ...list('optional', ['--color', '--word-diff', '--color-words', '--dirstat', '--relative', '--ignore-submodules', '--submodule', '--color-moved', '--abbrev', '--find-renames', '--find-copies', '--break-rewrites', '-M', '-C', '-B', '--diff-merges', '--stat-width', '--stat-name-width', '--stat-count', '--stat-graph-width', '--word-diff-regex', '--unified', '--inter-hunk-context', '--diff-algorithm', '--anchored', '--src-prefix', '--dst-prefix', '--line-prefix', '--output-indicator-new', '--output-indicator-old', '--output-indicator-context']),
  ...list('value', ['-U', '-S', '-G', '--diff-filter', '-l', '-I']),
  // -O names a file that orders the output; --output writes; the others run configured programs.
  ...list('read', ['-O', '--rotate-to', '--skip-to']),
  ...list('write', ['--output']),
  ...list('exec-flag', ['--ext-diff', '--textconv']),
} satisfies Record<string, OptionKind>

const LOG_OPTIONS = {
  ...DIFF_OPTIONS,
  ...list('flag', [
    '--oneline', '--graph', '--no-decorate', '--all', '--branches', '--tags', '--remotes', '--reverse', '--first-parent', '--merges', '--no-merges',
    '--abbrev-commit', '--no-abbrev-commit', '--follow', '--topo-order', '--date-order', '--author-date-order', '--left-right', '--cherry-pick',
    '--cherry-mark', '--cherry', '--boundary', '--simplify-by-decoration', '--ancestry-path', '--full-history', '--dense', '--sparse',
    '--simplify-merges', '--no-notes', '--mailmap', '--use-mailmap', '--no-mailmap', '--no-use-mailmap', '--expand-tabs', '--no-expand-tabs',
    '--log-size', '--parents', '--children', '--source', '--stdin', '-i', '--regexp-ignore-case', '-E', '--extended-regexp', '-F',
    '--fixed-strings', '--basic-regexp', '--perl-regexp', '--all-match', '--invert-grep', '--count', '--objects', '--objects-edge',
    '--in-commit-order', '--no-walk', '--do-walk', '--single-worktree', '--reflog', '--walk-reflogs', '-g', '--full-diff', '--first-parent-only',
    '--relative-date', '--no-min-parents', '--no-max-parents', '--exclude-first-parent-only', '--bisect', '--not', '--left-only', '--right-only',
    '--show-pulls', '--clear-decorations', '--no-show-linear-break', '--timestamp', '--header', '--unpacked',
    '--indexed-objects', '--no-object-names', '--object-names', '--disk-usage', '--missing',
  ]),
  ...list('optional', ['--decorate', '--pretty', '--format', '--date', '--notes', '--show-notes', '--show-linear-break', '--decorate-refs', '--decorate-refs-exclude', '--exclude', '--glob', '--branches', '--tags', '--remotes']),
  ...list('value', ['-n', '--max-count', '--skip', '--since', '--after', '--until', '--before', '--since-as-filter', '--author', '--committer', '--grep', '--grep-reflog', '-L', '--min-parents', '--max-parents', '--max-age', '--min-age', '--encoding', '--filter', '--date']),
  // Verifying a signature runs gpg (gpg.program).
  ...list('exec-flag', ['--show-signature']),
} satisfies Record<string, OptionKind>

const GREP_OPTIONS = list('flag', [
  '--cached', '--untracked', '--no-index', '--no-exclude-standard', '--exclude-standard', '--recurse-submodules', '-a', '--text', '--no-textconv', '-i', '--ignore-case', '-I', '-r', '--recursive', '--no-recursive', '-w', '--word-regexp', '-v', '--invert-match', '-h', '-H',
  '--full-name', '-E', '--extended-regexp', '-G', '--basic-regexp', '-P', '--perl-regexp', '-F', '--fixed-strings', '-n', '--line-number',
  '--column', '-l', '--files-with-matches', '--name-only', '-L', '--files-without-match', '-z', '--null', '-o', '--only-matching', '-c',
  '--count', '--no-color', '--break', '--heading', '-p', '--show-function', '-W', '--function-context', '--and', '--or', '--not', '(', ')',
  '--all-match', '-q', '--quiet',
])

/** Options of each read-only subcommand. `-O`/`--open-files-in-pager` (grep) runs a program. */
const SUBCOMMANDS: Readonly<Record<string, Record<string, OptionKind>>> = {
  log: LOG_OPTIONS,
  whatchanged: LOG_OPTIONS,
  show: LOG_OPTIONS,
  'rev-list': LOG_OPTIONS,
  shortlog: { ...LOG_OPTIONS, ...list('flag', ['-n', '--numbered', '-s', '--summary', '-e', '--email', '-c', '--committer']), ...list('value', ['--group', '--format']), ...list('optional', ['-w']) },
  diff: DIFF_OPTIONS,
  'diff-tree': DIFF_OPTIONS,
  'diff-index': DIFF_OPTIONS,
  'diff-files': DIFF_OPTIONS,
  status: {
    ...list('flag', ['-s', '--short', '-b', '--branch', '--show-stash', '--long', '-v', '--verbose', '-z', '--no-column', '--ahead-behind', '--no-ahead-behind', '--renames', '--no-renames', '--no-ignored']),
    ...list('optional', ['--porcelain', '-u', '--untracked-files', '--ignored', '--ignore-submodules', '--column', '--find-renames']),
  },
  grep: {
    ...GREP_OPTIONS,
    ...list('optional', ['--color', '--threads']),
    ...list('value', ['-e', '--max-depth', '-A', '--after-context', '-B', '--before-context', '-C', '--context', '-m', '--max-count', '--threads']),
    ...list('read', ['-f']),
    ...list('exec', ['--open-files-in-pager']),
    ...list('exec-flag', ['-O', '--textconv']),
  },
  'rev-parse': {
    ...list('optional', ['--short', '--since', '--after', '--until', '--before', '--path-format', '--show-object-format', '--abbrev-ref', '--disambiguate', '--exclude', '--glob', '--branches', '--tags', '--remotes']),
    ...list('value', ['--default', '--git-path', '--prefix', '--resolve-git-dir']),
    ...list('flag', [
    '--show-toplevel', '--git-dir', '--git-common-dir', '--absolute-git-dir', '--abbrev-ref', '--verify', '-q', '--quiet', '--symbolic',
    '--symbolic-full-name', '--is-inside-work-tree', '--is-inside-git-dir', '--is-bare-repository', '--is-shallow-repository', '--show-prefix',
    '--show-cdup', '--show-superproject-working-tree', '--shared-index-path', '--all', '--branches', '--tags', '--remotes', '--sq', '--sq-quote',
    '--not', '--local-env-vars', '--show-ref-format', '--revs-only', '--no-revs', '--flags', '--no-flags', '--end-of-options',
    ]),
  },
  'ls-files': {
    ...list('flag', ['-c', '--cached', '-d', '--deleted', '-m', '--modified', '-o', '--others', '-i', '--ignored', '-s', '--stage', '-u', '--unmerged', '-k', '--killed', '--directory', '--no-empty-directory', '--eol', '--exclude-standard', '--error-unmatch', '--full-name', '--recurse-submodules', '--debug', '--deduplicate', '--sparse', '-z', '-t', '-v', '-f', '--resolve-undo']),
    ...list('optional', ['--abbrev']),
    ...list('value', ['-x', '--exclude', '--exclude-per-directory', '--format', '--with-tree']),
    ...list('read', ['-X', '--exclude-from']),
  },
  'ls-tree': { ...list('flag', ['-d', '-r', '-t', '-l', '--long', '-z', '--name-only', '--name-status', '--object-only', '--full-name', '--full-tree']), ...list('optional', ['--abbrev']), ...list('value', ['--format']) },
  blame: {
    ...list('flag', ['-b', '--root', '--show-stats', '-l', '-t', '-s', '-e', '--show-email', '-w', '--porcelain', '-p', '--line-porcelain', '--incremental', '-f', '--show-name', '-n', '--show-number', '-c', '--score-debug', '--progress', '--no-progress', '--first-parent', '--color-lines', '--color-by-age', '--minimal', '--no-textconv']),
    ...list('optional', ['-M', '-C', '--abbrev']),
    ...list('value', ['-L', '--date', '--since', '--ignore-rev', '--reverse', '--encoding']),
    ...list('read', ['--ignore-revs-file', '--contents', '-S']),
    ...list('exec-flag', ['--textconv']),
  },
  describe: { ...list('flag', ['--tags', '--all', '--long', '--always', '--exact-match', '--contains', '--first-parent', '--debug']), ...list('optional', ['--abbrev', '--dirty', '--broken']), ...list('value', ['--match', '--exclude', '--candidates']) },
  'cat-file': { ...list('flag', ['-t', '-s', '-e', '-p', '--batch-all-objects', '--follow-symlinks', '--unordered', '--buffer', '-Z', '-z', '--use-mailmap', '--mailmap', '--no-mailmap', '--allow-unknown-type']), ...list('optional', ['--batch', '--batch-check']), ...list('exec-flag', ['--textconv', '--filters']) },
  'merge-base': list('flag', ['-a', '--all', '--octopus', '--independent', '--is-ancestor', '--fork-point']),
  'name-rev': { ...list('flag', ['--tags', '--all', '--stdin', '--annotate-stdin', '--name-only', '--no-undefined', '--always']), ...list('value', ['--refs', '--exclude']) },
  'for-each-ref': { ...list('flag', ['--shell', '--perl', '--python', '--tcl', '--ignore-case', '--omit-empty', '--include-root-refs']), ...list('optional', ['--color']), ...list('value', ['--count', '--sort', '--format', '--points-at', '--merged', '--no-merged', '--contains', '--no-contains', '--exclude']) },
  'count-objects': list('flag', ['-v', '--verbose', '-H', '--human-readable']),
  cherry: { ...list('flag', ['-v']), ...list('optional', ['--abbrev']) },
  version: list('flag', ['--build-options']),
  'show-ref': { ...list('flag', ['--head', '--heads', '--branches', '--tags', '-d', '--dereference', '--verify', '-q', '--quiet', '--exists']), ...list('optional', ['-s', '--hash', '--abbrev', '--exclude-existing']) },
  'check-ignore': list('flag', ['-q', '--quiet', '-v', '--verbose', '-n', '--non-matching', '--no-index', '--stdin', '-z']),
  'check-attr': list('flag', ['-a', '--all', '--cached', '--stdin', '-z']),
  var: list('flag', ['-l']),
}

const BRANCH_LIST: Record<string, OptionKind> = {
  ...list('flag', ['-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--list', '-l', '--show-current', '-i', '--ignore-case', '--no-color', '--no-column', '--omit-empty']),
  ...list('optional', ['--color', '--column', '--abbrev']),
  ...list('value', ['--merged', '--no-merged', '--contains', '--no-contains', '--points-at', '--sort', '--format']),
}
const TAG_LIST: Record<string, OptionKind> = {
  ...list('flag', ['-l', '--list', '-i', '--ignore-case', '--no-column', '--omit-empty']),
  ...list('optional', ['-n', '--column', '--color']),
  ...list('value', ['--sort', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--format']),
}
const CONFIG_READ: Record<string, OptionKind> = {
  ...list('flag', ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', '--show-origin', '--show-scope', '--name-only', '-z', '--null', '--global', '--system', '--local', '--worktree', '--includes', '--no-includes', '--bool', '--int', '--bool-or-int', '--path', '--expiry-date', '--all', '--regexp', '--fixed-value']),
  ...list('value', ['--type', '--default', '--blob', '--value', '--url']),
  ...list('read', ['-f', '--file']),
  ...list('exec-flag', ['-e', '--edit']),
}
const CONFIG_MODES = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list'])

/** Subcommands that rewrite git's own configuration or metadata files (run code, move git elsewhere). */
const CONFIG_WRITERS = new Set(['submodule', 'worktree', 'init', 'clone', 'maintenance', 'filter-branch', 'lfs'])

/** The facts of `git …`. */
export function gitFacts(argv: readonly string[]): CommandFacts {
  const global = parseArgs(argv, 1, GLOBAL)
  const subIndex = global.operands[0]
  const globalFacts = factsFromOptions(argv, { table: GLOBAL, operands: 'none' }, { options: global.options, operands: [] })
  if (subIndex === undefined) return { ...globalFacts, readOnly: globalFacts.readOnly && hasOption(global, '--version') }
  const subcommand = argv[subIndex] as string
  const facts = subcommandFacts(argv, subIndex, subcommand)
  const runsProgram = globalFacts.runsProgram ?? facts.runsProgram
  const readOnly = globalFacts.readOnly && facts.readOnly
  return {
    ...facts,
    readOnly,
    ...(readOnly ? {} : { notReadOnly: globalFacts.notReadOnly ?? facts.notReadOnly ?? `git ${subcommand} is not read-only` }),
    ...(runsProgram ? { runsProgram: runsProgram.startsWith('git ') ? runsProgram : `git ${runsProgram}` } : {}),
  }
}

function subcommandFacts(argv: readonly string[], at: number, subcommand: string): CommandFacts {
  const sub = argv.slice(at)
  const table = (options: Record<string, OptionKind>): OptionTable => ({ options, numeric: true })
  const read = (options: Record<string, OptionKind>, extra: (parsed: ReturnType<typeof parseArgs>) => string | undefined = () => undefined): CommandFacts => {
    const parsed = parseArgs(sub, 1, table(options))
    const facts = shift(factsFromOptions(sub, { table: table(options), operands: 'paths', firstOperandIsText: subcommand === 'grep' && !hasOption(parsed, '-e', '-f') }, parsed), at)
    const why = extra(parsed)
    return why ? { ...facts, readOnly: false, notReadOnly: facts.notReadOnly ?? why } : facts
  }
  const writesConfig = (why: string): CommandFacts => ({ readOnly: false, notReadOnly: why, paths: [], impliedWrites: ['.git/config'], operandsArePaths: false })
  if (subcommand === 'grep') return searchedTree(objectPaths(argv, read(SUBCOMMANDS.grep as Record<string, OptionKind>)))
  if (Object.hasOwn(SUBCOMMANDS, subcommand)) return objectPaths(argv, read(SUBCOMMANDS[subcommand] as Record<string, OptionKind>))
  switch (subcommand) {
    case 'branch':
      return read(BRANCH_LIST, (parsed) => (parsed.operands.length > 0 && !hasOption(parsed, '-l', '--list') ? 'git branch with a name creates a branch' : undefined))
    case 'tag':
      return read(TAG_LIST, (parsed) => (parsed.operands.length > 0 && !hasOption(parsed, '-l', '--list') ? 'git tag with a name creates a tag' : undefined))
    case 'remote': {
      const [action, ...rest] = sub.slice(1)
      if (action === undefined || ((action === '-v' || action === '--verbose') && rest.length === 0)) return readOnlyFacts()
      if (action === 'get-url' && rest.every((word) => !word.startsWith('-') || word === '--push' || word === '--all')) return readOnlyFacts()
      // `remote show` asks the remote over the network unless -n.
      if (action === 'show' && rest.includes('-n') && rest.every((word) => !word.startsWith('-') || word === '-n')) return readOnlyFacts()
      return writesConfig(`git remote ${action} changes or contacts a remote`)
    }
    case 'stash': {
      const [action] = sub.slice(1)
      if (action === 'list') return read(LOG_OPTIONS)
      if (action === 'show') return read({ ...DIFF_OPTIONS, ...list('flag', ['--include-untracked', '-u', '--only-untracked']) })
      return { ...unknownCommand('git stash'), notReadOnly: 'git stash changes the working tree' }
    }
    case 'reflog': {
      const [action] = sub.slice(1)
      if (action === undefined || action.startsWith('-') || action === 'show' || action === 'exists') return read(LOG_OPTIONS)
      return { ...unknownCommand('git reflog'), notReadOnly: `git reflog ${action} rewrites the reflog` }
    }
    case 'worktree':
      if (sub[1] === 'list' && sub.slice(2).every((word) => ['--porcelain', '-v', '--verbose', '-z'].includes(word))) return readOnlyFacts()
      return writesConfig('git worktree changes git metadata')
    case 'config':
      return configFacts(sub, at)
    default:
      if (CONFIG_WRITERS.has(subcommand)) return writesConfig(`git ${subcommand} writes git's own configuration`)
      return { ...unknownCommand(`git ${subcommand}`), operandsArePaths: false }
  }
}

/** `git config`: reading forms are read-only; setting one writes a config file (`.git/config`, `~/.gitconfig`). */
function configFacts(sub: readonly string[], at: number): CommandFacts {
  const first = sub[1]
  // The newer spelling: `git config get|list …`.
  if (first === 'get' || first === 'list') {
    const parsed = parseArgs(sub, 2, { options: CONFIG_READ })
    return shift(factsFromOptions(sub, { table: { options: CONFIG_READ }, operands: 'none' }, parsed), at)
  }
  const parsed = parseArgs(sub, 1, { options: CONFIG_READ })
  const facts = shift(factsFromOptions(sub, { table: { options: CONFIG_READ }, operands: 'none' }, parsed), at)
  const reading = parsed.options.some((option) => CONFIG_MODES.has(option.name)) || (parsed.operands.length === 1 && first !== 'set' && first !== 'unset')
  if (reading) return facts
  const global = hasOption(parsed, '--global')
  return { ...facts, readOnly: false, notReadOnly: 'git config sets a value', impliedWrites: [global ? '~/.gitconfig' : '.git/config'] }
}

/** `REV:path` operands (`git show HEAD:secrets/key`) read that path as stored in git: it counts as a read of the file. */
function objectPaths(argv: readonly string[], facts: CommandFacts): CommandFacts {
  const paths = facts.paths.map((path) => {
    const word = argv[path.index] ?? ''
    // `REV:path`, or `:path` / `:N:path` for what is staged.
    const colon = /^:[0-3]:/.test(word) ? 2 : word.indexOf(':')
    if (path.write || path.from !== 0 || colon < 0 || word.slice(0, colon).includes('/')) return path
    const rest = word.slice(colon + 1)
    return rest.startsWith('./') || rest.startsWith('../') ? { ...path, from: colon + 1 } : { ...path, from: colon + 1, fromRoot: true }
  })
  return { ...facts, paths }
}

/** `git grep` searches the tree below each pathspec (the cwd when none is named). */
function searchedTree(facts: CommandFacts): CommandFacts {
  const paths = facts.paths.map((path) => (path.write || path.fromRoot ? path : { ...path, recursive: true }))
  const named = paths.some((path) => path.recursive)
  return { ...facts, paths, ...(named ? {} : { impliedReads: [{ path: '.', recursive: true }] }) }
}

function readOnlyFacts(): CommandFacts {
  return { readOnly: true, paths: [], operandsArePaths: false }
}

/** Facts computed on a slice of argv, with word indexes moved back to the whole argv. */
function shift(facts: CommandFacts, by: number): CommandFacts {
  return { ...facts, paths: facts.paths.map((path) => ({ ...path, index: path.index + by })) }
}
