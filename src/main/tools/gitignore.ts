import { readFile, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import ignore from 'ignore'
import type { Ignore } from 'ignore'

/**
 * Answers "is this path ignored by git?" from the `.gitignore` files of every folder between a
 * file and the repository root (the folder holding `.git`, or `stopAt`), as git does.
 */
export class GitignoreFilter {
  private readonly perDir = new Map<string, Promise<Ignore | undefined>>()
  private readonly rootCache = new Map<string, Promise<string>>()

  constructor(private readonly stopAt?: string) {}

  async isIgnored(absPath: string): Promise<boolean> {
    const root = await this.repoRoot(dirname(absPath))
    let dir = dirname(absPath)
    for (;;) {
      const rules = await this.rulesOf(dir)
      if (rules) {
        const rel = relative(dir, absPath).split(sep).join('/')
        if (rel && rules.ignores(rel)) return true
      }
      if (dir === root) return false
      const parent = dirname(dir)
      if (parent === dir) return false
      dir = parent
    }
  }

  private rulesOf(dir: string): Promise<Ignore | undefined> {
    let rules = this.perDir.get(dir)
    if (!rules) {
      rules = readFile(join(dir, '.gitignore'), 'utf8').then(
        (text) => ignore().add(text),
        () => undefined,
      )
      this.perDir.set(dir, rules)
    }
    return rules
  }

  private repoRoot(dir: string): Promise<string> {
    let found = this.rootCache.get(dir)
    if (!found) {
      found = (async () => {
        if (dir === this.stopAt) return dir
        try {
          await stat(join(dir, '.git'))
          return dir
        } catch {
          const parent = dirname(dir)
          return parent === dir ? dir : this.repoRoot(parent)
        }
      })()
      this.rootCache.set(dir, found)
    }
    return found
  }
}
