import { homedir } from 'node:os'
import { dirname } from 'node:path'
import { isInsideRoots, isUnder, resolveUserPath } from '../paths'
import { denyCandidates, isReadOnlyCommand, NON_PATH_ARGS, patternArgIndex, READ_ONLY_COMMANDS, stripSafeWrappers, WRITE_COMMANDS } from './commands'
import type { AnalyzeOptions, BashCommand, BashPath } from './types'
import type { WordValue } from './words'

/** Targets a write may always reach. */
const EXEMPT = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
/** Commands that read the files named in their arguments (beyond the read-only set). */
const READ_COMMANDS = new Set(['sed', 'awk', 'sort', 'uniq', 'cut', 'less', 'more', 'nl', 'od', 'xxd', 'file', 'tr', 'jq', 'tac', 'strings', 'md5sum', 'sha256sum', 'base64'])

interface PathFacts {
  paths: BashPath[]
  writesOutside: boolean
  readOnly: boolean
  critical: string[]
  problems: string[]
}

/** Finds the files each command reads and writes, where they resolve, and what is read-only or critical. */
export function analyzePaths(commands: BashCommand[], opts: AnalyzeOptions): PathFacts {
  const home = opts.home ?? homedir()
  const roots = [opts.projectRoot, ...(opts.additionalDirectories ?? [])]
  const paths: BashPath[] = []
  const critical: string[] = []
  const problems: string[] = []
  let cwd = opts.cwd
  let readOnly = true
  let sawCd = false
  let sawGit = false

  const record = (w: WordValue, write: boolean, via: BashPath['via'], index: number): void => {
    paths.push(locate(w, write, via, index, cwd, home, roots))
  }

  commands.forEach((c, index) => {
    for (const r of c.redirects) {
      if (r.op === '<<' || r.op === '<<<') continue
      const w: WordValue = { value: r.target, literal: r.literal, glob: false, tilde: r.target.startsWith('~') }
      record(w, r.write, 'redirect', index)
    }
    if (c.argv.length === 0) return
    const stripped = stripSafeWrappers(c.argv)
    const argv = stripped.argv
    const offset = c.argv.length - argv.length
    const name = argv[0] ?? ''
    const sedInPlace = name === 'sed' && argv.some((a) => a === '-i' || a.startsWith('-i') || a.startsWith('--in-place'))
    const writes = WRITE_COMMANDS.has(name) || sedInPlace
    if (name === 'cd') sawCd = true
    if (name === 'git') sawGit = true
    if (!isReadOnlyCommand(argv) || stripped.execWrapper || c.assignments.length > 0 || (c.words[0] && !c.words[0].literal)) readOnly = false

    if (writes || (READ_ONLY_COMMANDS.has(name) && !NON_PATH_ARGS.has(name)) || READ_COMMANDS.has(name)) {
      const skip = name === 'sed' || name === 'awk' || name === 'jq' ? firstPositional(argv) : patternArgIndex(argv)
      for (let j = 1; j < argv.length; j++) {
        const w = c.words[offset + j]
        if (!w || j === skip) continue
        const a = w.value
        if (w.literal && a.startsWith('-')) {
          const eq = a.indexOf('=')
          const value = eq === -1 ? '' : a.slice(eq + 1)
          if (/^(\/|~|\.\.)/.test(value)) record({ ...w, value, tilde: value.startsWith('~') }, writes, 'argument', index)
          continue
        }
        if (name === 'dd') {
          const m = /^(if|of)=(.*)$/.exec(a)
          if (m) record({ ...w, value: m[2] ?? '' }, m[1] === 'of', 'argument', index)
          continue
        }
        if (writes && w.glob) problems.push(`${name} with an unquoted glob (${a})`)
        record(w, writes, 'argument', index)
      }
    }
    if (name === 'cd' && !c.nested) {
      const target = c.words[offset + 1]
      cwd = target?.literal ? resolveUserPath(target.value, cwd, home) : home
    }
    for (const form of denyCandidates(c.argv)) {
      if (form[0] === 'rm' || form[0] === 'rmdir') critical.push(...criticalTargets(form, c, cwd, opts.projectRoot, home))
    }
  })

  if (sawCd && sawGit) problems.push('cd followed by git (git would run in another directory)')
  if (paths.some((p) => p.write && !p.exempt)) readOnly = false
  const writesOutside = paths.some((p) => p.write && !p.exempt && !p.inside)
  return { paths, writesOutside, readOnly, critical: [...new Set(critical)], problems }
}

function firstPositional(argv: string[]): number {
  if (argv.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression') || a.startsWith('--file'))) return -1
  return argv.findIndex((a, i) => i > 0 && !a.startsWith('-'))
}

function locate(w: WordValue, write: boolean, via: BashPath['via'], command: number, cwd: string, home: string, roots: string[]): BashPath {
  const base = { path: w.value, write, via, command }
  if (!w.literal) return { ...base, resolved: '', inside: false, exempt: false }
  if (EXEMPT.has(w.value) || /^\/dev\/fd\/\d+$/.test(w.value)) return { ...base, resolved: w.value, inside: false, exempt: true }
  if (w.glob) {
    const at = w.value.search(/[*?[]/)
    const prefix = w.value.slice(0, at)
    const dir = prefix.endsWith('/') ? prefix : dirname(`${prefix}x`)
    const resolved = resolveUserPath(dir === '' ? '.' : dir, cwd, home)
    // `.*` may match `..` in older bash; a glob part with `..` leaves the directory.
    const escapes = /(^|\/)\.[*?[]/.test(w.value) || /(^|\/)\.\.(\/|$)/.test(w.value.slice(at))
    return { ...base, resolved, inside: !escapes && isInsideRoots(resolved, roots), exempt: false }
  }
  const resolved = resolveUserPath(w.value, cwd, home)
  return { ...base, resolved, inside: isInsideRoots(resolved, roots), exempt: false }
}

/** Critical rm targets (REFERENCE 2.3): never auto-approved in any mode. */
function criticalTargets(form: string[], c: BashCommand, cwd: string, projectRoot: string, home: string): string[] {
  const out: string[] = []
  const wordsByValue = new Map(c.words.map((w) => [w.value, w]))
  for (const a of form.slice(1)) {
    if (a.startsWith('-')) continue
    const w = wordsByValue.get(a)
    if (w && !w.literal) {
      out.push(`rm of a target only known at run time: ${a}`)
      continue
    }
    let target = a
    if (w?.glob) {
      const at = a.search(/[*?[]/)
      const prefix = a.slice(0, at)
      target = prefix === '' ? '.' : prefix.endsWith('/') ? prefix : dirname(`${prefix}x`)
    }
    const abs = resolveUserPath(target, cwd, home)
    if (abs === '/' || dirname(abs) === '/' || abs === home || isUnder(projectRoot, abs) || isUnder(cwd, abs)) out.push(`rm of a critical path: ${a}`)
  }
  return out
}
