import { lstatSync, readdirSync, readlinkSync, type Dirent } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { isUnder } from '../paths/place'

/*
 * What on the disk one wrapped command's bubblewrap arguments follow from, as a string two wraps
 * can be compared by (see `wrap-cache.ts`). sandbox-runtime reads, for each command:
 * - every path of the policy (written, denied, re-allowed, its own default write paths) and every
 *   folder above it: whether each exists, is a folder, a file or a link and where a link points
 *   (it binds the resolved path, and a link on the way changes what is bound);
 * - what the read and write patterns (globs) expand to below their literal part;
 * - what a denied folder holds that a re-allowed path lies in (it re-binds what is allowed inside);
 * - its ripgrep scan of the process's working directory for protected names (`.git/HEAD`,
 *   `.bashrc`, `.vscode`, …), four levels deep, `node_modules` left out;
 * - the folders of PATH, where it looks up the shell.
 * The fingerprint records each of those as names, types, modes and link targets — never times,
 * which a command can set back (`touch -d`) and which tick too coarsely to tell two changes apart.
 * Files' contents are not in it: the library looks at none. Of the working directory's scan only
 * the folders a sandboxed command can change are listed (inside a writable root); the rest can
 * change only from outside the sandbox, and a protected name found outside every writable root
 * adds no mount (bubblewrap's read-only root already covers it).
 */

/** How many folders one fingerprint lists at most; a larger one is not taken (the command is wrapped afresh). */
export const MAX_LISTED_FOLDERS = 4000

/** The library's scan depth for protected names when the configuration names none (`mandatoryDenySearchDepth`). */
const LIBRARY_SCAN_DEPTH = 3

/** What a fingerprint is taken of: the command's full policy, the extra paths the library adds, and its working directory. */
export interface FingerprintInput {
  config: SandboxRuntimeConfig
  /** The write paths the library adds of its own (`getDefaultWritePaths()`). */
  libraryWritable: readonly string[]
  /** Other paths it binds (its proxy and monitor sockets). */
  libraryPaths: readonly string[]
  cwd: string
  /** The folders of PATH, where it looks the shell up (`which bash`) for every command. */
  searchPath: readonly string[]
}

/**
 * The fingerprint of what the wrap of `input` reads from the disk, or `undefined` when it is too
 * large to take ({@link MAX_LISTED_FOLDERS}): then nothing may be reused.
 */
export function wrapFingerprint(input: FingerprintInput): string | undefined {
  const fs = input.config.filesystem
  const named = (list: readonly unknown[] | undefined) => (list ?? []).map((entry) => (typeof entry === 'string' ? entry : (entry as { path: string }).path))
  const writable = [...named(fs.allowWrite), ...input.libraryWritable].map((p) => resolve(p))
  const denyRead = named(fs.denyRead)
  const allowRead = named(fs.allowRead)
  const all = [...writable, ...named(fs.denyWrite), ...denyRead, ...allowRead, ...input.libraryPaths, input.cwd, join(input.cwd, '.git')]
  const out = new Fingerprint()
  for (const path of all) {
    const literal = literalPart(path)
    out.chain(literal)
    // A pattern: everything below its literal part may be what it expands to.
    if (literal !== resolve(path)) out.tree(literal, Infinity, false)
  }
  // A denied folder with a re-allowed path inside: the library lists each folder on the way down.
  for (const allowed of allowRead.map(literalPart)) {
    for (const denied of denyRead.map(literalPart)) {
      if (!isUnder(allowed, denied) || allowed === denied) continue
      for (let dir = dirname(allowed); isUnder(dir, denied); dir = dirname(dir)) out.list(dir)
    }
  }
  // Where the shell is looked up: a folder a command can write could hold another `bash` by the next command.
  for (const dir of input.searchPath.filter((d) => d.startsWith('/'))) {
    out.chain(resolve(dir))
    if (writable.some((root) => isUnder(resolve(dir), root))) out.list(resolve(dir))
  }
  // The library's scan, where a sandboxed command can change what it finds.
  const depth = input.config.mandatoryDenySearchDepth ?? LIBRARY_SCAN_DEPTH
  const cwd = resolve(input.cwd)
  for (const root of writable) {
    if (isUnder(cwd, root)) out.tree(cwd, depth)
    else if (isUnder(root, cwd)) {
      const below = relative(cwd, root).split(sep).length
      if (below <= depth) out.tree(root, depth - below)
    }
  }
  return out.text()
}

/**
 * The folders and files a wrapped command binds (each `--bind`/`--ro-bind` source, unquoted as the
 * library quotes: single quotes, `'"'"'` for a quote), for {@link pathsSignature}: whatever the
 * library added of its own (its monitor's socket among them) is then covered too.
 */
export function boundSources(wrapped: string): string[] {
  const found = new Set<string>()
  for (const m of wrapped.matchAll(/--(?:ro-)?bind(?:-try)? ('(?:[^']|'"'"')*'|[^\s']+)/g)) {
    const word = m[1] as string
    found.add(word.startsWith("'") ? word.slice(1, -1).replaceAll(`'"'"'`, "'") : word)
  }
  return [...found].filter((path) => path.startsWith('/'))
}

/** What each of `paths` and every folder above it is now (type, mode, owner, link target). */
export function pathsSignature(paths: readonly string[]): string {
  const out = new Fingerprint()
  for (const path of paths) out.chain(resolve(path))
  return out.text() ?? ''
}

/** The path up to its first pattern character's component (the library expands the rest). */
function literalPart(path: string): string {
  const absolute = resolve(path)
  const at = absolute.search(/[*?[\]{}]/)
  if (at === -1) return absolute
  return dirname(absolute.slice(0, at + 1)) || '/'
}

/** The lines of one fingerprint, each path recorded once. */
class Fingerprint {
  private readonly lines = new Map<string, string>()
  private listed = 0
  private tooLarge = false

  /** `path` and every folder above it: what each is (type, mode, link target). */
  chain(path: string): void {
    for (let p = path; ; p = dirname(p)) {
      const key = `n ${p}`
      if (!this.lines.has(key)) this.lines.set(key, describe(p))
      if (p === dirname(p)) return
    }
  }

  /** What the folder `dir` holds: names, types and link targets. Returns the folders in it. */
  list(dir: string): string[] {
    const key = `l ${dir}`
    if (this.lines.has(key) || this.tooLarge) return []
    if (++this.listed > MAX_LISTED_FOLDERS) {
      this.tooLarge = true
      return []
    }
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch (e) {
      this.lines.set(key, `! ${(e as NodeJS.ErrnoException).code ?? 'error'}`)
      return []
    }
    const kinds = entries.map((entry) => [entry.name, kindOf(join(dir, entry.name), entry)] as const)
    const names = kinds.map(([name, kind]) => `${name}\0${kind}`).sort()
    this.lines.set(key, `${describe(dir)}\0${names.join('\0')}`)
    return kinds.filter(([, kind]) => kind.startsWith('d')).map(([name]) => name)
  }

  /**
   * `dir` and the folders below it down to `depth` levels, links not followed; `node_modules` left
   * out when `likeScan` (the library's ripgrep scan leaves it out; its pattern expansion does not).
   */
  tree(dir: string, depth: number, likeScan = true): void {
    const walk = (at: string, level: number): void => {
      const folders = this.list(at)
      if (level >= depth) return
      for (const name of folders) if (!(likeScan && name === 'node_modules')) walk(join(at, name), level + 1)
    }
    walk(dir, 0)
  }

  /** The fingerprint, or `undefined` when it grew past its bound. */
  text(): string | undefined {
    if (this.tooLarge) return undefined
    return [...this.lines].map(([key, value]) => `${key}\0${value}`).join('\n')
  }
}

/** What `path` is now: absent (with why), or its type and mode, and a link's target. */
function describe(path: string): string {
  try {
    const st = lstatSync(path)
    const type = st.isSymbolicLink() ? `l>${readlinkSync(path)}` : st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o'
    return `${type} ${st.mode.toString(8)} ${st.uid}`
  } catch (e) {
    return `- ${(e as NodeJS.ErrnoException).code ?? 'error'}`
  }
}

/** A listed entry's kind (a link with its target), from the listing when it tells. */
function kindOf(path: string, entry: Dirent): string {
  if (entry.isSymbolicLink()) {
    try {
      return `l>${readlinkSync(path)}`
    } catch {
      return 'l?'
    }
  }
  if (entry.isDirectory()) return 'd'
  if (entry.isFile()) return 'f'
  return describe(path)
}
