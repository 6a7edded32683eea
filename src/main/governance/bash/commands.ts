/**
 * A command taken apart: the wrappers in front (`specs/wrappers.ts`) and the command they run
 * (`specs/`), the forms deny and allow rules see, interpreters and shells. What each command's
 * options mean lives in `specs/`; this file only puts the layers together.
 */

import type { CommandFacts } from './facts'
import { describeCommand } from './specs'
import { unwrap, type WrapperLayer } from './specs/wrappers'

/** A wrapper found in a command, with where it starts in the command's words. */
export type PlacedLayer = WrapperLayer & { start: number }

/** A command taken apart: the wrappers in front (outermost first) and the command they run. */
export interface Unwrapped {
  layers: PlacedLayer[]
  /** Index in argv where the innermost command starts (argv.length when nothing is left, as after a bare `xargs`). */
  start: number
  /** What the innermost command does. */
  facts: CommandFacts
}

/** One analysis asks about the same words many times (rules, paths, problems): keyed by the argv array itself. */
const unwrapped = new WeakMap<readonly string[], Unwrapped>()

/** Takes every wrapper off the front of argv (at most 16 deep) and describes the command left. */
export function unwrapCommand(argv: readonly string[]): Unwrapped {
  let known = unwrapped.get(argv)
  if (!known) {
    known = unwrapFresh(argv)
    unwrapped.set(argv, known)
  }
  return known
}

function unwrapFresh(argv: readonly string[]): Unwrapped {
  const layers: PlacedLayer[] = []
  let start = 0
  for (let guard = 0; guard < 16 && start < argv.length; guard++) {
    const layer = unwrap(argv.slice(start), SAFE_ENV_VARS)
    if (!layer) break
    const placed: PlacedLayer = { ...layer, start, facts: shiftFacts(layer.facts, start), ...(layer.cwd ? { cwd: { ...layer.cwd, index: layer.cwd.index + start } } : {}) }
    layers.push(placed)
    if (layer.inner === undefined) return { layers, start: argv.length, facts: nothingLeft(layer) }
    start += layer.inner
  }
  const rest = argv.slice(start)
  // A bare `xargs` runs echo.
  const facts = rest.length === 0 ? { readOnly: true, paths: [], operandsArePaths: false } : shiftFacts(describeCommand(rest), start)
  return { layers, start, facts }
}

/** What is left when a wrapper runs no command of its own words (`watch 'cmd'`, `env -S '…'`, bare `env`). */
function nothingLeft(layer: WrapperLayer): CommandFacts {
  const runsScript = layer.script !== undefined || layer.scriptUnknown === true
  return runsScript ? { readOnly: false, notReadOnly: `${layer.name} runs a command line`, paths: [], operandsArePaths: false } : { readOnly: true, paths: [], operandsArePaths: false }
}

function shiftFacts(facts: CommandFacts, by: number): CommandFacts {
  return by === 0 ? facts : { ...facts, paths: facts.paths.map((path) => ({ ...path, index: path.index + by })) }
}

/** Whether every wrapper and the command inside are read-only by their options. */
export function isReadOnlyCommand(argv: readonly string[]): boolean {
  const unwrapped = unwrapCommand(argv)
  return unwrapped.facts.readOnly && unwrapped.layers.every((layer) => layer.facts.readOnly)
}

export interface StrippedCommand {
  /** The command as allow rules see it (transparent wrappers removed). */
  argv: string[]
  /** An exec wrapper (or `xargs` with flags) sits in front: no allow rule may cover it. */
  execWrapper: boolean
}

/** Strips the wrappers allow rules look through: timeout time nice nohup stdbuf command builtin noglob, bare xargs. */
export function stripSafeWrappers(argv: readonly string[]): StrippedCommand {
  const { layers } = unwrapCommand(argv)
  let start = 0
  for (const layer of layers) {
    const bareXargs = layer.name === 'xargs' && layer.inner === 1
    // A wrapper that writes a file it names (`time -o FILE`) does more than the wrapped command: no rule for that command covers it.
    const writesNamedFile = layer.facts.paths.some((path) => path.write)
    if ((!layer.transparent && !bareXargs) || writesNamedFile) return { argv: argv.slice(start), execWrapper: true }
    if (layer.inner === undefined) break
    start = layer.start + layer.inner
  }
  return { argv: argv.slice(start), execWrapper: false }
}

/** Every form deny/ask rules are checked against: the command, each layer of wrappers peeled off, and what `find -exec` runs. */
export function denyCandidates(argv: readonly string[]): string[][] {
  const out: string[][] = [[...argv]]
  for (const layer of unwrapCommand(argv).layers) {
    if (layer.inner !== undefined && layer.start + layer.inner < argv.length) out.push(argv.slice(layer.start + layer.inner))
  }
  for (const form of [...out]) {
    if (form[0] !== 'find') continue
    for (let i = 1; i < form.length; i++) {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(form[i] as string)) {
        const end = form.findIndex((word, j) => j > i && (word === ';' || word === '+'))
        const inner = form.slice(i + 1, end === -1 ? undefined : end).filter((word) => word !== '{}')
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

/** Commands acceptEdits mode allows when every path stays inside the project. */
export const ACCEPT_EDITS_COMMANDS = new Set(['mkdir', 'touch', 'mv', 'cp'])
