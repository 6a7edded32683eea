import { accessSync, constants, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { isInsideRoots, isUnder, type Place } from '../paths/place'
import { realDirectory, realPathOf } from '../paths/real-path'
import { expandTilde } from '../paths/tilde'
import { denyCandidates, unwrapCommand } from './commands'
import type { PathArgument } from './facts'
import { expandGlob, type GlobMatch } from './glob-expand'
import type { AnalyzeOptions, BashCommand, BashPath, CommandVerdict } from './types'
import { dynamicWord, plainWord, type WordValue } from './words'

/** Targets a write may always reach. */
const EXEMPT = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
/** Past this many possible working directories, the next one is "unknown". */
const MAX_CWDS = 8
/** A name that may stand before `=` in an assignment (bash expands `~` after it: `of=~/x`). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*=$/

interface PathFacts {
  paths: BashPath[]
  verdicts: CommandVerdict[]
  writesOutside: boolean
  readOnly: boolean
  critical: string[]
  problems: string[]
}

/** Where a path is resolved from: a known folder, or `undefined` when the analysis lost track. */
type Cwd = string | undefined

/**
 * Finds the files each command reads and writes, where they really lead, and what is read-only
 * or critical. A `cd` (or `pushd`, `popd`, `env -C`) adds the folder it goes to to the places
 * later commands may run in, without dropping the old one: it may fail, be skipped by `||` or
 * sit in a subshell, so every later relative path must be fine from each of them. A move the
 * analysis cannot follow (`cd -`, `cd $DIR`, `cd ~user`, a folder that is not there) adds
 * "unknown", and any relative path after it asks.
 */
export function analyzePaths(commands: BashCommand[], opts: AnalyzeOptions): PathFacts {
  const home = opts.home ?? homedir()
  const roots = [opts.projectRoot, ...(opts.additionalDirectories ?? [])]
  const where: Where = { home, roots, realRoots: roots.map(realDirectory) }
  const paths: BashPath[] = []
  const verdicts: CommandVerdict[] = []
  const critical: string[] = []
  const problems: string[] = []
  let cwds: Cwd[] = [opts.cwd]
  let sawCd = false
  let sawGit = false
  const deferred: Array<() => void> = []

  commands.forEach((command, index) => {
    const record = (word: WordValue, meta: PathMeta, from: Cwd[]): void => {
      for (const cwd of unique(from)) paths.push(locate(word, { ...meta, command: index }, cwd, where))
    }
    if (command.argv.length === 0) {
      // The redirections of a compound statement (tree-sitter also reads `a && b > f` as one): a
      // command inside may have moved the cwd first, so they are placed after the last command.
      deferred.push(() => redirects(command, record, cwds))
      verdicts.push({ readOnly: true })
      return
    }
    redirects(command, record, cwds)
    const unwrapped = unwrapCommand(command.argv)
    const verdict: CommandVerdict = { readOnly: true }
    const refuse = (why: string | undefined, runsProgram?: string): void => {
      if (verdict.readOnly) verdict.notReadOnly = why
      verdict.readOnly = false
      if (runsProgram && !verdict.runsProgram) verdict.runsProgram = runsProgram
    }
    let here = cwds
    const argumentPaths = (list: PathArgument[], from: Cwd[]): void => {
      for (const argument of list) record(wordAt(command, argument), { write: argument.write, via: 'argument', recursive: argument.recursive }, argument.fromRoot ? [opts.projectRoot] : from)
    }
    const implied = (list: string[] | undefined, write: boolean, from: Cwd[], recursive = false): void => {
      for (const path of list ?? []) record(plainWord(path), { write, via: 'implied', recursive }, from)
    }
    for (const layer of unwrapped.layers) {
      argumentPaths(layer.facts.paths, here)
      implied(layer.facts.impliedWrites, true, here)
      if (!layer.facts.readOnly) refuse(layer.facts.notReadOnly, layer.facts.runsProgram)
      if (layer.cwd) {
        const word = wordAt(command, layer.cwd)
        record(word, { write: false, via: 'argument' }, here)
        here = here.map((cwd) => directoryAfterCd(word, cwd, home))
      }
    }
    const facts = unwrapped.facts
    argumentPaths(facts.paths, here)
    implied(facts.impliedWrites, true, here)
    for (const read of facts.impliedReads ?? []) implied([read.path], false, here, read.recursive)
    const unknown = [...unwrapped.layers.flatMap((layer) => layer.facts.unknownReads ?? []), ...(facts.unknownReads ?? [])]
    // xargs appends what it reads from stdin: files no word shows.
    if (unwrapped.layers.some((layer) => layer.argumentsFromStdin) && facts.operandsArePaths) unknown.push('arguments read from stdin')
    for (const what of unknown) paths.push({ path: `(${what})`, resolved: '', real: '', inside: false, write: false, via: 'implied', exempt: false, command: index })
    if (!facts.readOnly) refuse(facts.notReadOnly, facts.runsProgram)
    if (command.assignments.length > 0) refuse('sets environment variables for the command')
    if (command.dynamic) refuse('a word is only known at run time')
    verdicts.push(verdict)

    const name = command.argv[unwrapped.start] ?? ''
    if (name === 'git') sawGit = true
    if (name === 'cd' || name === 'pushd' || name === 'popd') {
      sawCd = true
      const target = name === 'popd' ? undefined : cdTarget(command, unwrapped.start)
      // A bare `cd` goes home: a folder like any other, read and judged.
      if (target === 'home') record(plainWord(home), { write: false, via: 'implied' }, here)
      const next = target === undefined ? [undefined] : here.map((cwd) => (target === 'home' ? home : directoryAfterCd(target, cwd, home)))
      if (next.includes(undefined)) problems.push(`${command.text.trim()}: moves to a folder the analysis cannot follow (cd -, a variable, ~user, or a folder that is not there)`)
      cwds = unique([...cwds, ...next])
      if (cwds.length > MAX_CWDS) cwds = [...cwds.slice(0, MAX_CWDS), undefined]
    }
    for (const form of denyCandidates(command.argv)) {
      if (form[0] === 'rm' || form[0] === 'rmdir') for (const cwd of unique(cwds)) critical.push(...criticalTargets(form, command, cwd, opts.projectRoot, home))
    }
  })

  for (const place of deferred) place()
  if (sawCd && sawGit) problems.push('cd followed by git (git would run in another directory)')
  const writes = paths.some((path) => path.write && !path.exempt)
  const readOnly = !writes && verdicts.every((verdict) => verdict.readOnly)
  const writesOutside = paths.some((path) => path.write && !path.exempt && !path.inside)
  return { paths, verdicts, writesOutside, readOnly, critical: [...new Set(critical)], problems }
}

type Recorder = (word: WordValue, meta: PathMeta, from: Cwd[]) => void

/** Records the files a command's redirections open. */
function redirects(command: BashCommand, record: Recorder, cwds: Cwd[]): void {
  for (const redirect of command.redirects) {
    if (redirect.op === '<<' || redirect.op === '<<<') continue
    // A glob in a redirection names whatever file matches when it runs (or none): never a known place.
    const word = redirect.word.glob ? dynamicWord(redirect.word.value) : redirect.word
    record(word, { write: redirect.write, via: 'redirect' }, cwds)
  }
}

interface PathMeta {
  write: boolean
  via: BashPath['via']
  recursive?: boolean
  command?: number
}

function unique(cwds: Cwd[]): Cwd[] {
  return [...new Set(cwds)]
}

/**
 * The word a path argument names: the whole word, or its tail after `--name=`, `of=` or `-o`.
 * bash expands `~` only at the start of a word or after the `=` of `NAME=`; it globs the whole
 * word, so a tail with glob characters is not something we can name.
 */
function wordAt(command: BashCommand, argument: PathArgument): WordValue {
  const word = command.words[argument.index]
  if (!word) return dynamicWord('')
  if (argument.from === 0 || !word.literal) return word
  if (word.glob) return dynamicWord(word.value)
  const value = word.value.slice(argument.from)
  const shape = word.shape.slice(argument.from)
  const tilde = NAME.test(word.value.slice(0, argument.from)) && shape.startsWith('~')
  return { value, literal: true, glob: false, tilde, shape }
}

/** `cd DIR`: the target word, 'home' for a bare `cd`, undefined for what cannot be followed (`cd -`, `cd $X`). */
function cdTarget(command: BashCommand, start: number): WordValue | 'home' | undefined {
  const words = command.words.slice(start + 1).filter((word) => !(word.literal && /^-[LPe@]+$/.test(word.value)))
  const target = words[0]
  if (!target) return 'home'
  if (!target.literal || target.value === '-' || /^[+-]\d+$/.test(target.value)) return undefined
  return target
}

/** The folder a `cd` to `word` lands in from `cwd`, or undefined when that cannot be known (or it is not an existing, enterable folder). */
function directoryAfterCd(word: WordValue, cwd: Cwd, home: string): Cwd {
  if (!word.literal || word.glob) return undefined
  const raw = word.tilde ? expandTilde(word.value, { home, cwd: cwd ?? '' }) : word.value
  if (raw === undefined || (cwd === undefined && !raw.startsWith('/'))) return undefined
  const real = realPathOf(raw, cwd ?? '/')
  if (real === undefined || !isEnterableDirectory(real)) return undefined
  // bash keeps the logical path (PWD); the kernel resolves from where it really is, and so does realPathOf.
  return resolve(cwd ?? '/', raw)
}

function isEnterableDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory() && (accessSync(path, constants.X_OK), true)
  } catch {
    return false
  }
}

/** What every path of one analysis is judged against (the roots' real paths computed once). */
interface Where {
  home: string
  roots: string[]
  realRoots: string[]
}

/** Where one word leads from one working directory. */
function locate(word: WordValue, meta: PathMeta, cwd: Cwd, where: Where): BashPath {
  const { home } = where
  const base = { path: word.value, write: meta.write, via: meta.via, command: meta.command ?? 0, ...(meta.recursive ? { recursive: true } : {}) }
  const unknown: BashPath = { ...base, resolved: '', real: '', inside: false, exempt: false }
  if (!word.literal) return unknown
  if (EXEMPT.has(word.value) || /^\/dev\/fd\/\d+$/.test(word.value)) return { ...base, resolved: word.value, real: word.value, inside: false, exempt: true }
  let raw = word.value
  let shape = word.shape
  if (word.tilde) {
    const expanded = expandTilde(word.value, { home, cwd: cwd ?? '' })
    if (expanded === undefined || (cwd === undefined && !expanded.startsWith('/'))) return unknown
    const prefix = word.value.indexOf('/') === -1 ? word.value.length : word.value.indexOf('/')
    shape = '\0'.repeat(expanded.length - (word.value.length - prefix)) + shape.slice(prefix)
    raw = expanded
  }
  if (cwd === undefined && !raw.startsWith('/')) return unknown
  const from = cwd ?? '/'
  if (word.glob) return globPath(base, raw, shape, from, where)
  const resolved = resolve(from, raw)
  const real = realPathOf(raw, from) ?? ''
  return { ...base, resolved, real, inside: real !== '' && isInsideRoots({ path: resolved, real }, where.roots, where.realRoots), exempt: false }
}

/**
 * A glob: where its literal part leads, and every file it matches now (bash expands it when the
 * command runs). It is inside only when all of them are; a `.*` or `..` in its glob part may leave.
 */
function globPath(base: Omit<BashPath, 'resolved' | 'real' | 'inside' | 'exempt'>, raw: string, shape: string, cwd: string, where: Where): BashPath {
  const at = firstGlob(raw, shape)
  const prefix = raw.slice(0, at)
  const dir = prefix === '' ? '.' : prefix.endsWith('/') ? prefix : dirname(`${prefix}x`)
  const resolved = resolve(cwd, dir)
  const real = realPathOf(dir, cwd) ?? ''
  const escapes = /(^|\/)\.[*?[]/.test(raw) || /(^|\/)\.\.(\/|$)/.test(raw.slice(at))
  const expanded = expandGlob(raw, shape, cwd)
  const matches = expanded === undefined ? undefined : placesOf(expanded)
  const everyMatchInside = matches !== undefined && matches.every((match) => isInsideRoots(match, where.roots, where.realRoots))
  const inside = !escapes && real !== '' && isInsideRoots({ path: resolved, real }, where.roots, where.realRoots) && everyMatchInside
  return { ...base, resolved, real, inside, exempt: false, glob: true, ...(matches ? { matches } : {}) }
}

/**
 * Where each file a glob matched really is. Matches share their folders, so each folder is
 * resolved once; a match that is itself a symlink is followed in full.
 */
function placesOf(matches: GlobMatch[]): Place[] {
  const folders = new Map<string, string | undefined>()
  return matches.map((match) => {
    const folder = dirname(match.path)
    if (!folders.has(folder)) folders.set(folder, realPathOf(folder, '/'))
    const realFolder = folders.get(folder)
    const real = match.link || realFolder === undefined ? realPathOf(match.path, '/') : join(realFolder, basename(match.path))
    return { path: resolve(match.path), real }
  })
}

function firstGlob(value: string, shape: string): number {
  for (let i = 0; i < value.length; i++) if (shape[i] !== '\0' && '*?['.includes(value[i] as string)) return i
  return value.length
}

/** Critical rm targets (REFERENCE 2.3): never auto-approved in any mode. */
function criticalTargets(form: string[], command: BashCommand, cwd: Cwd, projectRoot: string, home: string): string[] {
  const out: string[] = []
  const wordsByValue = new Map(command.words.map((word) => [word.value, word]))
  for (const argument of form.slice(1)) {
    if (argument.startsWith('-')) continue
    const word = wordsByValue.get(argument)
    if (word && !word.literal) {
      out.push(`rm of a target only known at run time: ${argument}`)
      continue
    }
    let target = argument
    if (word?.glob) {
      const at = firstGlob(argument, word.shape)
      const prefix = argument.slice(0, at)
      target = prefix === '' ? '.' : prefix.endsWith('/') ? prefix : dirname(`${prefix}x`)
    }
    const expanded = word?.tilde ? expandTilde(target, { home, cwd: cwd ?? '' }) : target
    if (expanded === undefined || (cwd === undefined && !expanded.startsWith('/'))) {
      out.push(`rm of a target whose place is not known: ${argument}`)
      continue
    }
    const abs = resolve(cwd ?? '/', expanded)
    const current = cwd ?? '/'
    if (abs === '/' || dirname(abs) === '/' || abs === home || isUnder(projectRoot, abs) || isUnder(current, abs)) out.push(`rm of a critical path: ${argument}`)
  }
  return out
}
