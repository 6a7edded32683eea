import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
// Only ever given an analysis, so the analyzer is loaded (analyzer.ts).
import { bashAnalyzer } from '../bash/analyzer'
import type { BashAnalysis, BashCommand } from '../bash/types'
import { realDirectory, realPathOf } from '../paths/real-path'
import { isUnder, type Place } from '../paths/place'

/**
 * Where a recursive reader's symlinks take it. A folder's path says nothing about the files a
 * reader that follows links will print: `diff -r docs other` with `docs/k -> ~/.ssh` prints the
 * key, `du -L`, `ls -RL`, `grep -R`, `rg --follow`, `find -L`, `cp -rL`, `tar -h` and `zip -r`
 * likewise. So for each folder such a command reads, the tree is walked (bounded) for links, and
 * each link is judged as the place it really leads to: outside the project it asks, and a deny or
 * ask rule covering it asks in every mode. Readers that never follow links (`grep -r`, `rg`,
 * `find`, `ls -R`, `git grep`) are left alone; a recursive reader not known here counts as one
 * that follows (when in doubt, ask).
 */

/** Bounds on the walk: past them the answer is "unsure", and the command asks. */
const MAX_ENTRIES = 20_000
const MAX_DEPTH = 40

/** What the links below a command's folders lead to. */
export interface LinkReach {
  /** Each link found, as written (its path below the folder) and where it really leads. */
  places: Place[]
  /** Why the walk could not finish (too many entries, a link loop): the command asks. */
  unsure?: string
}

/**
 * Walks the folders of every link-following reader in `analysis`; a link that leaves `roots` is
 * recorded and not walked into (it asks already). Contract: never throws.
 */
export function linkReach(analysis: BashAnalysis, roots: readonly string[]): LinkReach {
  const realRoots = roots.map(realDirectory)
  const reach: LinkReach = { places: [] }
  const budget = { entries: 0 }
  const visited = new Set<string>()
  analysis.commands.forEach((command, index) => {
    if (reach.unsure) return
    const follows = followingPaths(command)
    if (follows === 'none') return
    for (const path of analysis.paths) {
      if (path.command !== index || path.write || path.exempt || !path.real) continue
      if (follows === 'recursive' && !path.recursive) continue
      const why = walk(path.real, 0, { reach, budget, visited, realRoots })
      if (why) {
        reach.unsure = `${command.text.trim()}: ${why}`
        return
      }
    }
  })
  return reach
}

/**
 * Which read paths of `command` the program follows links below: `all` (diff reads the files of
 * the folders it compares, and dereferences them), `recursive` (the folders it recurses into), or
 * `none`.
 */
export function followingPaths(command: BashCommand): 'all' | 'recursive' | 'none' {
  const { start } = bashAnalyzer().unwrapCommand(command.argv)
  const name = command.argv[start] ?? ''
  const args = command.argv.slice(start + 1)
  const options = args.slice(0, args.includes('--') ? args.indexOf('--') : args.length)
  const long = (...names: string[]): boolean => options.some((word) => names.some((n) => word === n || word.startsWith(`${n}=`)))
  const short = (letter: string): boolean => options.some((word) => /^-[A-Za-z0-9]+$/.test(word) && word.slice(1).includes(letter))
  switch (name) {
    case 'diff':
      return long('--no-dereference') ? 'none' : 'all'
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return short('R') || long('--dereference-recursive') ? 'recursive' : 'none'
    case 'rg':
      return short('L') || long('--follow') ? 'recursive' : 'none'
    case 'find':
      return options.some((word) => word === '-L' || word === '-H' || word === '-follow') ? 'recursive' : 'none'
    case 'ls':
    case 'du':
      return short('L') || long('--dereference') ? 'recursive' : 'none'
    case 'tree':
      return short('l') ? 'recursive' : 'none'
    case 'git':
      return 'none'
    case 'cp':
      return short('L') || short('H') || long('--dereference') ? 'all' : 'none'
    case 'tar':
      return short('h') || long('--dereference') ? 'all' : 'none'
    case 'zip':
      return short('y') || long('--symlinks') ? 'none' : 'all'
    default:
      return 'recursive'
  }
}

/** Walks `dir` (a real path), recording every link's destination; returns why it stopped short, or undefined. */
interface Walk {
  reach: LinkReach
  budget: { entries: number }
  visited: Set<string>
  realRoots: string[]
}

function walk(dir: string, depth: number, w: Walk): string | undefined {
  const { reach, budget, visited } = w
  if (visited.has(dir)) return undefined
  visited.add(dir)
  if (depth > MAX_DEPTH) return 'the folders it reads are nested too deep to check where their links lead'
  let entries
  try {
    if (!statSync(dir).isDirectory()) return undefined
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return undefined
  }
  for (const entry of entries) {
    if (++budget.entries > MAX_ENTRIES) return `the folders it reads hold more than ${MAX_ENTRIES} entries, too many to check where their links lead`
    const path = join(dir, entry.name)
    if (entry.isSymbolicLink()) {
      const real = realPathOf(path, '/')
      if (real === undefined) return `${path} is a symlink loop`
      reach.places.push({ path, real })
      if (!w.realRoots.some((root) => isUnder(real, root))) continue
      const why = walk(real, depth + 1, w)
      if (why) return why
    } else if (entry.isDirectory()) {
      const why = walk(path, depth + 1, w)
      if (why) return why
    }
  }
  return undefined
}
