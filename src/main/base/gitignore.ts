import { readFile, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'

/**
 * The `.gitignore` rules of one tree, applied as git applies them (the `ignore` package matches
 * the patterns): every folder's `.gitignore` speaks for the paths below it, the deepest file with
 * a matching pattern decides (so a nested `!pattern` re-includes what a parent ignored), and
 * nothing inside an ignored folder can be re-included. Glob, the file tree (`files.list`) and `@`
 * completion all use this one matcher, so they agree on what is ignored.
 *
 * Files are read lazily, once per folder, and cached for the matcher's life: make one per walk.
 */
export class GitignoreMatcher {
  private readonly rules = new Map<string, Promise<Ignore | undefined>>()
  private readonly folders = new Map<string, Promise<boolean>>()

  /** `root`: the folder whose `.gitignore` files apply (a project or repository root). */
  constructor(readonly root: string) {}

  /** Whether `path` (relative to the root, `/`-separated) is ignored; `isDir` for a folder. */
  async ignores(path: string, isDir: boolean): Promise<boolean> {
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''
    if (parent && (await this.folderIgnored(parent))) return true
    return this.matches(path, isDir)
  }

  /**
   * Judges the paths under `folder` by `text` (undefined: no `.gitignore` there) rather than by
   * the file as it is when first needed: a caller that read the rules earlier (a checkpoint's,
   * read before the call that may change them) gives them here.
   */
  seed(folder: string, text: string | undefined): void {
    this.rules.set(folder, Promise.resolve(text === undefined ? undefined : ignore().add(text)))
  }

  /** {@link ignores} for an absolute path under the root (outside it: never ignored). */
  async ignoresAbsolute(absolutePath: string, isDir: boolean): Promise<boolean> {
    const path = relative(this.root, absolutePath).split(sep).join('/')
    if (!path || path.startsWith('../') || path === '..') return false
    return this.ignores(path, isDir)
  }

  private folderIgnored(folder: string): Promise<boolean> {
    let known = this.folders.get(folder)
    if (!known) {
      known = this.ignores(folder, true)
      this.folders.set(folder, known)
    }
    return known
  }

  /** The deepest `.gitignore` with a pattern matching `path` decides; none matching: not ignored. */
  private async matches(path: string, isDir: boolean): Promise<boolean> {
    const parts = path.split('/')
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const rules = await this.rulesOf(parts.slice(0, depth).join('/'))
      if (!rules) continue
      const verdict = rules.test(`${parts.slice(depth).join('/')}${isDir ? '/' : ''}`)
      if (verdict.ignored) return true
      if (verdict.unignored) return false
    }
    return false
  }

  private rulesOf(folder: string): Promise<Ignore | undefined> {
    let rules = this.rules.get(folder)
    if (!rules) {
      rules = readFile(join(this.root, folder, '.gitignore'), 'utf8').then(
        (text) => ignore().add(text),
        // No .gitignore here (the usual case), or one we cannot read: no rules from this folder.
        () => undefined,
      )
      this.rules.set(folder, rules)
    }
    return rules
  }
}

/**
 * Where `.gitignore` rules for a search in `dir` start: the nearest folder at or above `dir` that is
 * the project root or holds `.git`; `dir` itself outside any repository.
 */
export async function gitignoreRoot(dir: string, projectRoot: string): Promise<string> {
  for (let current = dir; ; current = dirname(current)) {
    if (current === projectRoot) return current
    if (await stat(join(current, '.git')).then(() => true, () => false)) return current
    if (dirname(current) === current) return dir
  }
}
